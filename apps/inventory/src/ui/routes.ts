import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HelmetOptions } from 'helmet';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { auditLogs } from '../audit/definition.js';
import { API_TOKEN_SCOPES } from '../auth/api-tokens.js';
import type { TokenService } from '../auth/tokens.js';
import type { UserCache } from '../auth/user-cache.js';
import type { AnyDatabase } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { matchingErrors, PLAIN_UUID } from '../http/validation.js';
import {
  findMarkup,
  findUnpairedSurrogate,
  formatPath,
  MARKUP,
  NOT_UNICODE,
} from '../protections/content-check.js';
import { routeSecurityHeaders } from '../protections/security-headers.js';
import {
  type CsvPurpose,
  type CsvRows,
  cellValue,
  csvHeaderProblem,
  csvIgnoredFields,
  csvRecord,
  csvRowSchema,
  readCsvRows,
  updateRowProblem,
} from '../resources/csv-import.js';
import { disagreeingForms, offers } from '../resources/definition.js';
import { strongEtag } from '../resources/etags.js';
import { IN_MAX_VALUES } from '../resources/lookups.js';
import { rowTags } from '../resources/rows.js';
import { MAX_BATCH_ITEMS } from '../resources/schemas.js';
import { MIN_PASSWORD_LENGTH, users } from '../users/definition.js';
import {
  type ApiAnswer,
  type ApiCall,
  answered,
  apiError,
  apiFor,
  errorMessage,
  type SignedInUser,
} from './api.js';
import {
  countOf,
  mayRead,
  mayWrite,
  UI_RESOURCES,
  type UiColumn,
  type UiResource,
  uiResource,
} from './catalogue.js';
import { cutToStart, visibleControls } from './characters.js';
import { Html, html, isolate } from './html.js';
import { csrfField, type PageContext, type PageError, page } from './layout.js';
import {
  apiExportQuery,
  apiListQuery,
  ENUMERATION_LOOKUPS,
  enumerationFilterOf,
  filterOf,
  isEnumeration,
  keptFilters,
  type ListState,
  LOOKUP_LABELS,
  listOfNames,
  listUrl,
  MAX_SORTS,
  mayBeEmpty,
  namesInList,
  readListState,
  UI_PAGE_SIZES,
} from './lists.js';
import {
  CSRF_FIELD,
  csrfMatches,
  SESSION_COOKIE,
  SessionStore,
  safeNext,
  type UiSession,
} from './sessions.js';
import {
  chartTime,
  legendSwatch,
  lineChartSvg,
  type TopologyEdge,
  type TopologyNode,
  topologySvg,
} from './svg.js';
import {
  BULK_CLEAR,
  bulkChoice,
  checkboxGroup,
  fieldControl,
  fieldMessage,
  fieldNamedIn,
  fieldOfMessage,
  formValue,
  isChoice,
  lineFeeds,
  listCell,
  parseFormValue,
  plainMessage,
  type ReferenceNames,
  type Row,
  referenceHint,
  referenceKey,
  rowLinkText,
  textOf,
  titleOf,
  titleReferences,
  typedChoice,
  valueCell,
} from './views.js';

export interface UiOptions {
  db: AnyDatabase;
  /** The largest body the API takes (a CSV import may be that large). */
  bodyLimit: number;
  tokens: TokenService;
  users: UserCache;
  /** Whether the service is served over TLS (the session cookie is then Secure). */
  secureCookies: boolean;
}

/**
 * The pages' own policy: scripts, styles and images from this origin only (no inline script or
 * style, no eval), forms post here only, no frames either way.
 */
export const UI_HELMET: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'"],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
  },
};

interface Signed {
  user: SignedInUser;
  session: UiSession;
  api: ApiCall;
  context: PageContext;
}

declare module 'fastify' {
  interface FastifyRequest {
    ui: Signed | null;
  }
}

const HTML = 'text/html; charset=utf-8';
/**
 * What a form did, said once on the page it redirects to: a cookie (so it holds behind several
 * instances and is never part of an address), read and cleared by the next page shown. It is
 * signed with the session's secret (its CSRF token): a host beside this one can set a cookie
 * for it, and its text must never appear as the service's own words.
 */
const FLASH_COOKIE = 'inventory_ui_flash';
const FLASH_CHARS = 300;
const flashSignature = (secret: string, text: string) =>
  createHmac('sha256', secret).update(`flash\0${text}`).digest('base64url');
/** `<signature>.<text>`, for the session whose secret is `secret`. */
const signedFlash = (secret: string, text: string) => `${flashSignature(secret, text)}.${text}`;
/** The text of a flash this session set, or undefined (absent, cut, or signed by no one). */
function flashText(secret: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  const dot = value.indexOf('.');
  if (dot < 0) return undefined;
  const text = value.slice(dot + 1);
  const given = Buffer.from(value.slice(0, dot));
  const expected = Buffer.from(flashSignature(secret, text));
  return given.length === expected.length && timingSafeEqual(given, expected) ? text : undefined;
}
const ASSETS = new Map(
  (['ui.css', 'ui.js', 'favicon.svg'] as const).map((name) => {
    const body = readFileSync(new URL(`./static/${name}`, import.meta.url));
    return [
      name,
      {
        body,
        gzip: gzipSync(body, { level: 9 }),
        type: name.endsWith('.css')
          ? 'text/css; charset=utf-8'
          : name.endsWith('.svg')
            ? 'image/svg+xml'
            : 'text/javascript; charset=utf-8',
      },
    ];
  }),
);

type Query = Record<string, unknown>;

/** A record's schema as fullRecordSchema makes it: its fields' rules, the required ones. */
type RecordSchema = { properties: Record<string, unknown>; required?: string[] };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A form the sign-in page may carry back after its session ended (formToResume). */
    resumableForm?: boolean;
  }
}

/** A form's fields as the form parser gives them: a string, or strings for a repeated name. */
const FormBody = Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]));
/** Forms hold a few fields; an import's CSV may take the API's whole body limit. */
const FORM_BODY_LIMIT = 64 * 1024;
/** How much larger a CSV may grow once urlencoded by the import form (%XX per byte). */
const IMPORT_EXPANSION = 3;
/**
 * What the sign-in form sends besides a carried form, at most, urlencoded: the username (255
 * characters) and password (1024), each character up to 9 bytes (%XX for each of 3 UTF-8
 * bytes), and the fields' names. `next` is added as it is.
 */
const SIGN_IN_FIELDS_BYTES = (255 + 1024) * 9 + 64;
/** Fields a form sent after its session ended never carries through the sign-in page. */
const NOT_RESUMED = (name: string) => name === CSRF_FIELD || /password|secret/i.test(name);
/**
 * A form sent after its session ended: where it went, its fields in order, the account whose
 * session ended, and this process's signature over all three.
 */
interface ResumedForm {
  action: string;
  fields: [string, string][];
  user: string;
  signature: string;
}

/**
 * The key carried forms are signed with: this process's own, never sent out. A form carried by
 * one instance and signed in on another is dropped (the sign-in goes on without it), as one
 * carried before a restart is.
 */
const RESUME_KEY = randomBytes(32);
const resumeSignature = (action: string, fields: readonly [string, string][], user: string) =>
  createHmac('sha256', RESUME_KEY)
    .update(JSON.stringify(['resumed-form', action, fields, user]))
    .digest('base64url');

/** The hidden fields the sign-in form carries a resumed form in. */
const resumeFields = (form: Omit<ResumedForm, 'signature'> & { signature?: string }) => ({
  resume_action: form.action,
  resume_fields: JSON.stringify(form.fields),
  resume_user: form.user,
  resume_sig: form.signature ?? '',
});

/**
 * Whether the sign-in form carrying `form` stays within the form limit, measured as it is sent
 * (urlencoded: a non-ASCII letter or a quote escaped in the JSON takes several bytes).
 */
const fitsSignInForm = (form: Omit<ResumedForm, 'signature'>, next: string) =>
  new URLSearchParams({ ...resumeFields({ ...form, signature: 'x'.repeat(43) }), next }).toString()
    .length +
    SIGN_IN_FIELDS_BYTES <=
  FORM_BODY_LIMIT;

/**
 * The resumed form as the sign-in page sent it back, when this process carried it: its
 * signature over action, fields and account holds, its fields pairs of strings, nothing the
 * sign-in page would not have carried, and a page of this interface to send them to.
 */
function readResumedForm(body: Form, next: string): ResumedForm | undefined {
  const action = one(body.resume_action);
  const user = one(body.resume_user);
  const signature = one(body.resume_sig);
  if (action === '' || user === '' || safeNext(action) !== action) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(one(body.resume_fields));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  const fields: [string, string][] = [];
  for (const pair of parsed) {
    if (!Array.isArray(pair) || pair.length !== 2) return undefined;
    const [name, value] = pair as unknown[];
    if (typeof name !== 'string' || typeof value !== 'string' || NOT_RESUMED(name))
      return undefined;
    fields.push([name, value]);
  }
  const expected = Buffer.from(resumeSignature(action, fields, user));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  if (!fitsSignInForm({ action, fields, user }, next)) return undefined;
  return { action, fields, user, signature };
}

interface PageRouteOptions {
  config: { access: 'public'; countedByRoute?: true; inputCheckedByApi: true };
  helmet: HelmetOptions;
  schema: { hide: boolean; body?: typeof FormBody };
  bodyLimit?: number;
}

/**
 * A form post is one request against the rate limit, whatever it does (writes, is refused, only
 * previews); its reads of the API and its write are not counted again (apiFor). The route counts
 * it once its body is read (countRequest, in page$), so a post past the limit comes back with
 * what was typed, without reading anything for it.
 */
const formRouteOptions = (options: PageRouteOptions, bodyLimit: number): PageRouteOptions => ({
  ...options,
  config: { ...options.config, countedByRoute: true },
  schema: { ...options.schema, body: FormBody },
  bodyLimit,
});
type Form = Record<string, string | string[] | undefined>;

const one = (value: unknown): string =>
  typeof value === 'string' ? value : Array.isArray(value) ? String(value[0] ?? '') : '';
const many = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.map(String)
    : typeof value === 'string' && value !== ''
      ? [value]
      : [];

/** The query of the export link: the list's filters and order. */
function exportParameters(state: ListState): string {
  const query = new URLSearchParams(state.filters);
  for (const sort of state.sortby) query.append('sortby', sort);
  return query.toString();
}

/** A column naming a record of another resource (name and references set where used). */
const RECORD_COLUMN: UiColumn = {
  name: '',
  label: 'Record',
  kind: 'uuid',
  filterable: false,
  sortable: false,
  writable: false,
  required: false,
  lookups: [],
  secret: false,
};

/** An error page's title by its status; any other is "Something went wrong". */
const ERROR_TITLES: Readonly<Record<number, string>> = {
  403: 'Forbidden',
  404: 'No such page',
  412: 'Changed meanwhile',
  413: 'Too large',
  429: 'Too many requests',
};

/** What a form posted with another session's CSRF token is told (it was not sent on). */
const STALE_FORM_MESSAGE =
  "Nothing was saved: this form's CSRF token is not this session's (it was opened before you last signed in, or was not sent by this site). Check the values below and send the form again.";
const staleForm = () =>
  new ApiError(
    403,
    'Forbidden: the form is out of date or was not sent by this site (CSRF token). Go back, reload the page and send it again.',
  );
/** The refusal a form shows itself again with when its token is stale (as if the API's). */
const STALE_FORM_ANSWER: ApiAnswer = {
  status: 403,
  body: { message: STALE_FORM_MESSAGE },
  text: '',
  headers: {},
};

/** Measurements a device's charts draw: the latest of the last 7 days (the API's largest page). */
const METRIC_POINTS = 100;

/**
 * Records a reference select offers: the referenced resource's first 100 (its largest page).
 * A resource with more is chosen by typing a record's title instead (idOfTitle), these offered
 * as suggestions.
 */
const REFERENCE_CHOICES = 100;

/** The records a reference control offers, and whether the resource holds more. */
type ReferenceChoices = Array<{ id: string; name: string }> & { more?: boolean };

/** Changes an object page shows of its history (the audit log has them all). */
const HISTORY_SHOWN = 25;

/** Rows per page of the accounts and API tokens pages. */
const ADMIN_PAGE_SIZE = 100;

/** A list answer's rows and the totals the pages below read. */
type PagedRows = { data?: Row[]; meta?: { total_pages?: number; total_count?: number } };

/**
 * The page of an admin list (`?page=`): 1 when absent or not a whole number from 1 on, as a link
 * someone edited by hand should still show a page.
 */
function pageNumberOf(request: FastifyRequest): number {
  const asked = Number(one((request.query as Query).page));
  return Number.isSafeInteger(asked) && asked >= 1 ? asked : 1;
}

/** Previous and Next of an admin list paged by number; nothing when it fits on one page. */
function numberedPaging(path: string, pageNumber: number, meta: PagedRows['meta']): Html | string {
  const pages = meta?.total_pages ?? 1;
  // A page past the last one says so above (adminTable), with a link back.
  if ((pages <= 1 && pageNumber <= 1) || pageNumber > Math.max(pages, 1)) return '';
  const at = (number: number) => (number === 1 ? path : `${path}?page=${number}`);
  return html`<nav class="paging" aria-label="Pages">
      ${pageNumber > 1 ? html`<a rel="prev" href="${at(Math.min(pageNumber - 1, Math.max(pages, 1)))}">Previous</a>` : html`<span class="disabled">Previous</span>`}
      <span>Page ${String(pageNumber)} of ${String(Math.max(pages, 1))} (${String(meta?.total_count ?? 0)} in all)</span>
      ${pageNumber < pages ? html`<a rel="next" href="${at(pageNumber + 1)}">Next</a>` : html`<span class="disabled">Next</span>`}
      </nav>`;
}

/**
 * An admin list's rows as a table, or a sentence when there are none: none yet, or none on a
 * page past the last one (`?page=5` of 1), which says so and links to the last page.
 */
function adminTable(
  rows: readonly Row[],
  plural: string,
  path: string,
  pageNumber: number,
  meta: PagedRows['meta'],
  table: () => Html,
): Html {
  if (rows.length > 0) return table();
  const pages = Math.max(meta?.total_pages ?? 1, 1);
  if (pageNumber > 1) {
    const count = meta?.total_count ?? 0;
    const last = pages === 1 ? path : `${path}?page=${pages}`;
    return html`<p class="alert" role="alert">There is no page ${String(pageNumber)}: ${count === 0 ? `there are no ${plural}` : `the ${String(count)} ${plural} fit on ${pages === 1 ? '1 page' : `${String(pages)} pages`}`}. <a href="${last}">Go to ${pages === 1 ? 'the first page' : `the last page (${String(pages)})`}</a>.</p>`;
  }
  return html`<p class="empty">No ${plural} yet.</p>`;
}

const FORBIDDEN = 'Forbidden: You do not have permission to perform this action';

/** A form value in a table of changes: an empty one shown as empty, not as a blank cell. */
const shownValue = (value: string | undefined, mark?: 'del' | 'ins') =>
  value === undefined || value === ''
    ? html`<span class="none">—</span>`
    : mark === 'del'
      ? html`<del>${value}</del>`
      : mark === 'ins'
        ? html`<ins>${value}</ins>`
        : html`${value}`;

/** Where a form that was accepted sends the browser, and what that page says it did. */
type Accepted = { redirect: string; flash?: string };

/**
 * A write the API refused with 429, which the form is shown again with: the API's own reason
 * kept (the interface's calls are not counted by the global rate limit, so it is a limit of
 * the write itself, such as the budget of username changes), with the wait (Retry-After) in
 * words; nothing was written.
 */
function rateLimited(answer: ApiAnswer): ApiAnswer {
  const wait = Number(answer.headers['retry-after']);
  const seconds = Number.isFinite(wait) && wait > 0 ? Math.ceil(wait) : 60;
  const reason = errorMessage(answer).replace(/[.;]?\s*try again later\.?$/i, '');
  return {
    ...answer,
    body: {
      message: `${reason}: nothing was saved. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    },
  };
}

/** What a form that writes declares (see `submit`). */
interface Submission<Input> {
  /** The form's fields as the API call needs them; nonsense is refused here (400). */
  read(signed: Signed, request: FastifyRequest): Input | Promise<Input>;
  /** The API call; undefined when there is nothing to send (an edit that changed nothing). */
  call(signed: Signed, input: Input): Promise<ApiAnswer | undefined>;
  /** Once the API accepted: where the browser goes (303: a reload does not post again). */
  accepted(
    input: Input,
    answer: ApiAnswer | undefined,
    signed: Signed,
  ): Accepted | Promise<Accepted>;
  /** The form again with the API's refusal; without it, the refusal is an error page. */
  refused?(signed: Signed, input: Input, answer: ApiAnswer): Promise<string> | string;
}

/** The web interface under /ui/: server-rendered pages over the API's own routes. */
export async function uiRoutes(app: FastifyInstance, options: UiOptions): Promise<void> {
  const sessions = new SessionStore(options.db, options.tokens.ttlSeconds);
  const cookieOptions = {
    path: '/ui',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: options.secureCookies,
  };
  app.decorateRequest('ui', null);

  // A page holds the user's data and the session's CSRF token (the sign-out form): no cache may
  // keep one, whichever path wrote it (a page, an error page, the missing page).
  app.addHook('onSend', async (_request, reply, payload) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });

  // Pages answer errors as pages: the API's handler would answer JSON.
  app.setErrorHandler(async (error, request, reply) => {
    const status =
      error instanceof ApiError
        ? error.statusCode
        : ((error as { statusCode?: number }).statusCode ?? 500);
    if (status >= 500) request.log.error({ err: error }, 'web interface error');
    const message =
      status >= 500
        ? 'Internal Server Error'
        : status === 413
          ? /\/import$/.test(request.url.split('?')[0] ?? '')
            ? `The CSV is too large for one import: at most ${importLimitText} (BODY_LIMIT) can be imported at once. Nothing was imported; split the file and import each part.`
            : `The form sent more than the ${FORM_BODY_LIMIT / 1024} KB a form may send. Nothing was saved.`
          : (error as Error).message;
    if (error instanceof ApiError) reply.headers(error.headers ?? {});
    // How long to wait, in words (the browser does not show Retry-After).
    const wait = Number(error instanceof ApiError ? error.headers?.['retry-after'] : undefined);
    const shown =
      status === 429 && Number.isFinite(wait) && wait > 0
        ? `Too many requests. Wait ${Math.ceil(wait)} second${Math.ceil(wait) === 1 ? '' : 's'} before trying again.`
        : message;
    const context = await signedInContext(request);
    return reply
      .status(status)
      .type(HTML)
      .header('cache-control', 'no-store')
      .send(
        page(
          context,
          ERROR_TITLES[status] ?? 'Something went wrong',
          html`<p class="alert" role="alert">${shown}</p><p><a href="/ui/">Back to the start page</a></p>`,
        ),
      );
  });

  // An address under /ui/ that is no page: a page saying so, not the API's JSON, with the
  // pages' own policy (the API's would refuse its style sheet and script).
  const notFoundHeaders = routeSecurityHeaders(UI_HELMET);
  app.setNotFoundHandler(async (request, reply) => {
    reply.status(404).type(HTML).header('cache-control', 'no-store').headers(notFoundHeaders);
    return page(
      await signedInContext(request),
      'No such page',
      html`<p class="alert" role="alert">There is no page at this address.</p><p><a href="/ui/">Back to the start page</a></p>`,
    );
  });

  /**
   * The request's session and its user while both are valid; a session whose account was
   * deactivated, deleted or given a new password since is returned as `ended`.
   */
  async function sessionOf(
    request: FastifyRequest,
  ): Promise<{ signed: Signed; ended?: undefined } | { signed?: undefined; ended?: UiSession }> {
    const session = await sessions.find(request.cookies[SESSION_COOKIE]);
    const account = session ? await options.users.find(session.userId) : undefined;
    if (
      !session ||
      !account ||
      account.inactive_status ||
      account.password_changed_at.getTime() !== session.tokenEpoch
    ) {
      return { ended: session };
    }
    const user: SignedInUser = {
      id: account.id,
      username: account.username,
      role: account.role,
      epoch: session.tokenEpoch,
      session: session.idHash,
    };
    const flash =
      request.method === 'GET'
        ? flashText(session.csrfToken, request.cookies[FLASH_COOKIE])
        : undefined;
    const context: PageContext = {
      user,
      csrfToken: session.csrfToken,
      query: one((request.query as Query | undefined)?.q),
      ...(flash ? { flash: flash.slice(0, FLASH_CHARS) } : {}),
    };
    return { signed: { user, session, api: apiFor(app, options.tokens, request, user), context } };
  }

  /** The signed-in user of a page, or a redirect to sign-in; revoked sessions are ended. */
  async function signedIn(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<Signed | undefined> {
    const { signed, ended } = await sessionOf(request);
    if (!signed) {
      // The account whose session ended (revoked, or expired and not yet swept): a form it sent
      // is carried back to it only. A session signed out of is gone, and its forms with it.
      const endedUser =
        request.method === 'POST'
          ? (ended?.userId ?? (await sessions.userOfEnded(request.cookies[SESSION_COOKIE])))
          : undefined;
      if (ended) await sessions.end(ended);
      const back =
        request.method === 'GET' || request.method === 'HEAD' ? request.url : pageOfForm(request);
      const resumed = endedUser ? formToResume(request, endedUser, back) : undefined;
      if (resumed) {
        send(reply, loginPage(back, '', undefined, resumed));
        return undefined;
      }
      reply.redirect(`/ui/login?next=${encodeURIComponent(back)}`, 303);
      return undefined;
    }
    request.ui = signed;
    return signed;
  }

  /**
   * Whether a browser can come back to `path` with a GET: a page, not a form's POST-only action.
   * `/ui/devices/bulk` reaches the object page's route as a GET (an id of "bulk", no such page):
   * a POST route more specific than the GET one there owns the address.
   */
  function isPage(path: string): boolean {
    const shown = app.findRoute({ method: 'GET', url: path });
    if (!shown) return false;
    const posted = app.findRoute({ method: 'POST', url: path });
    return !posted || JSON.stringify(posted.params) === JSON.stringify(shown.params);
  }

  /**
   * Where to come back after signing in again when a form was posted once its session had
   * ended: the page the form was on (the Referer, when it is a page of this service), else the
   * nearest page at or above the form's address (`/ui/devices/bulk` -> `/ui/devices`), else the
   * start page. Never the POST-only address itself, which a browser's GET would find missing.
   */
  function pageOfForm(request: FastifyRequest): string {
    const referer = request.headers.referer;
    if (referer) {
      try {
        // The host is compared, not the scheme or port: behind a proxy that ends TLS (without
        // TRUST_PROXY) the request is http while the page was https. Only the path is used, and
        // it must be a page of this service's /ui/ (safeNext), so a looser match sends no one
        // elsewhere.
        const from = new URL(referer);
        const here = new URL(`http://${request.host}`);
        const back = `${from.pathname}${from.search}`;
        if (from.hostname === here.hostname && safeNext(back) === back && isPage(from.pathname))
          return back;
      } catch {
        // Not a URL: the form's own address tells where it was.
      }
    }
    const segments = (request.url.split('?')[0] ?? '').split('/');
    for (let end = segments.length; end > 2; end--) {
      const path = segments.slice(0, end).join('/');
      if (safeNext(path) === path && isPage(path)) return path;
    }
    return '/ui/';
  }

  /**
   * A form sent after its session ended (it expired while the user typed, or another tab signed
   * out), to be carried through the sign-in page instead of lost: only a form that shows itself
   * again with what was typed (`submit` with `refused`), sent by a page of this site (the
   * browser's Sec-Fetch-Site, which another site cannot set: its forms never fill this one's
   * sign-in page), and small enough to carry. Its CSRF token and any password or secret are left
   * behind; once signed in, the form comes back with the old token, so it is shown, never saved.
   */
  function formToResume(
    request: FastifyRequest,
    user: string,
    next: string,
  ): ResumedForm | undefined {
    if (request.method !== 'POST' || !request.routeOptions.config?.resumableForm) return undefined;
    if (request.headers['sec-fetch-site'] !== 'same-origin') return undefined;
    const action = request.url;
    if (safeNext(action) !== action) return undefined;
    const fields: [string, string][] = [];
    for (const [name, value] of Object.entries((request.body ?? {}) as Form)) {
      if (NOT_RESUMED(name)) continue;
      for (const item of Array.isArray(value) ? value : [value ?? '']) fields.push([name, item]);
    }
    if (!fitsSignInForm({ action, fields, user }, next)) return undefined;
    return { action, fields, user, signature: resumeSignature(action, fields, user) };
  }

  /**
   * The layout's context for a page the route did not draw (an error, a missing page): the
   * signed-in user's header, search box and menu, or none. A refusal before the route ran (a
   * body too large, a malformed URL) has no `request.ui`; the session is looked up here, and a
   * failure to do so (the database is down) leaves the page without them.
   */
  async function signedInContext(request: FastifyRequest): Promise<PageContext> {
    if (request.ui) return request.ui.context;
    const { signed } = await sessionOf(request).catch(() => ({ signed: undefined }));
    return signed?.context ?? {};
  }

  /** Every state-changing form carries the session's token; anything else is refused. */
  function requireCsrf(signed: Signed, request: FastifyRequest): void {
    const body = (request.body ?? {}) as Form;
    if (!csrfMatches(signed.session, body[CSRF_FIELD])) throw staleForm();
  }

  const send = (reply: FastifyReply, body: string, status = 200) =>
    reply.status(status).type(HTML).header('cache-control', 'no-store').send(body);

  const routeOptions = {
    // Markup or a repeated parameter is refused by the API the page calls, and the page shows
    // that refusal beside what the user typed (a refusal before the page would lose it).
    // A page view is one request against the client's rate limit: this one (the API's reads
    // for it are not counted again, see apiFor).
    config: {
      access: 'public' as const,
      inputCheckedByApi: true as const,
    },
    helmet: UI_HELMET,
    // Pages are not part of the API's OpenAPI document.
    schema: { hide: true },
  };
  const formOptions = formRouteOptions(routeOptions, FORM_BODY_LIMIT);
  // The form sends the CSV urlencoded: a comma or a quote takes 3 bytes, a non-ASCII letter up
  // to 12. The page takes room for that, then refuses (in words) a CSV over the API's limit.
  const importOptions = formRouteOptions(
    routeOptions,
    IMPORT_EXPANSION * options.bodyLimit + FORM_BODY_LIMIT,
  );
  const importLimitText = `${Math.floor(options.bodyLimit / 1024).toLocaleString('en')} KB`;

  /**
   * A form post past the rate limit, answered without reading anything for it (429, Retry-After,
   * the wait in words). A form that shows itself again is carried back as the sign-in page
   * carries one, its token and any password or secret left behind: sent again, it comes back
   * with what was typed, to be checked and saved.
   */
  async function limitedForm(request: FastifyRequest, reply: FastifyReply, refusal: ApiError) {
    reply.headers(refusal.headers ?? {});
    const wait = Number(refusal.headers?.['retry-after']);
    const seconds = Number.isFinite(wait) && wait > 0 ? Math.ceil(wait) : 60;
    const carried =
      request.routeOptions.config?.resumableForm === true && safeNext(request.url) === request.url
        ? Object.entries((request.body ?? {}) as Form).flatMap(([name, value]) =>
            NOT_RESUMED(name)
              ? []
              : (Array.isArray(value) ? value : [value ?? '']).map((item) => [name, item] as const),
          )
        : undefined;
    return send(
      reply,
      page(
        await signedInContext(request),
        ERROR_TITLES[429] ?? 'Too many requests',
        html`<p class="alert" role="alert">Too many requests: nothing was saved. Try again in ${String(seconds)} second${seconds === 1 ? '' : 's'}.</p>
        ${
          carried
            ? html`<form method="post" action="${request.url}" class="resume">
          ${carried.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
          <button type="submit">Show what I typed</button>
        </form>`
            : ''
        }
        <p><a href="${pageOfForm(request)}">Back to the page</a></p>`,
      ),
      429,
    );
  }

  type Handler = (signed: Signed, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  const page$ = (handler: Handler) => async (request: FastifyRequest, reply: FastifyReply) => {
    // A form post counts once here, before anything is read for it (countedByRoute).
    if (request.routeOptions.config?.countedByRoute) {
      const refusal = await app.countRequest(request, reply);
      if (refusal) return limitedForm(request, reply, refusal);
    }
    const signed = await signedIn(request, reply);
    if (!signed) return reply;
    // A flash is said once: the page that shows it forgets it (and one not signed is dropped).
    if (request.method === 'GET' && request.cookies[FLASH_COOKIE] !== undefined)
      reply.clearCookie(FLASH_COOKIE, cookieOptions);
    return handler(signed, request, reply);
  };
  const setFlash = (reply: FastifyReply, signed: Signed, text: string) =>
    reply.setCookie(
      FLASH_COOKIE,
      signedFlash(signed.session.csrfToken, text.slice(0, FLASH_CHARS)),
      {
        ...cookieOptions,
        maxAge: 300,
      },
    );
  const form$ = (handler: Handler) =>
    page$(async (signed, request, reply) => {
      requireCsrf(signed, request);
      return handler(signed, request, reply);
    });

  /**
   * Every form that writes has one shape, declared here once: read the form, make one API call
   * as the signed-in user, then either send the browser on (303, so a reload does not post
   * again) or show the form again with the API's refusal beside what the user typed, answered
   * with the API's status. A form declares only what differs: how it reads, what it calls,
   * where it goes, how it shows a refusal (an error page when it declares none).
   */
  const submit = <Input>(path: string, form: Submission<Input>, options = formOptions) =>
    app.post(
      path,
      // A form that can show itself again can be carried through a new sign-in (formToResume).
      { ...options, config: { ...options.config, resumableForm: form.refused !== undefined } },
      page$(async (signed, request, reply) => {
        if (!csrfMatches(signed.session, ((request.body ?? {}) as Form)[CSRF_FIELD])) {
          // A form opened before the user signed in again (another tab signed out and in): its
          // token is the old session's. Nothing is written; the form comes back with what was
          // typed and this session's token, to be checked and sent again.
          if (!form.refused) throw staleForm();
          const input = await form.read(signed, request);
          return send(reply, await form.refused(signed, input, STALE_FORM_ANSWER), 403);
        }
        const input = await form.read(signed, request);
        const answer = await form.call(signed, input);
        if (answer === undefined || (answer.status >= 200 && answer.status < 300)) {
          const next = await form.accepted(input, answer, signed);
          if (next.flash) setFlash(reply, signed, next.flash);
          return reply.redirect(next.redirect, 303);
        }
        const refusal = answer.status === 429 ? rateLimited(answer) : answer;
        if (!form.refused) throw apiError(refusal);
        // A refusal's Retry-After (429) reaches the browser with the form shown again.
        reply.headers(apiError(refusal).headers);
        let shown: string;
        try {
          shown = await form.refused(signed, input, refusal);
        } catch (error) {
          // The form's page could not be drawn again (its own reads of the API failed): a
          // write's 429 is said with its wait on an error page instead.
          if (refusal.status === 429) throw apiError(refusal);
          throw error;
        }
        return send(reply, shown, refusal.status);
      }),
    );

  const resourceOf = (signed: Signed, name: string): UiResource => {
    const resource = uiResource(name);
    if (!resource || !mayRead(resource, signed.user.role)) throw new ApiError(404, 'No such page');
    return resource;
  };
  /** The resource the route's `:resource` names, readable by the user. */
  const routeResource = (signed: Signed, request: FastifyRequest) =>
    resourceOf(signed, (request.params as { resource: string }).resource);
  /** The same, for pages that write: refused (403) to a user who may not write it. */
  const writableResource = (signed: Signed, request: FastifyRequest) => {
    const resource = routeResource(signed, request);
    if (!mayWrite(resource, signed.user.role)) throw new ApiError(403, FORBIDDEN);
    return resource;
  };

  // Static assets: versioned URLs, cached for a year, gzip when accepted.
  app.get(
    '/static/:name',
    // Files, not API operations: left out of the OpenAPI document like the pages.
    { config: { access: 'public', rateLimit: false }, helmet: UI_HELMET, schema: { hide: true } },
    async (request, reply) => {
      const asset = ASSETS.get((request.params as { name: string }).name as 'ui.css');
      if (!asset) throw new ApiError(404, 'No such file');
      reply
        .type(asset.type)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('vary', 'accept-encoding');
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
        return reply.header('content-encoding', 'gzip').send(asset.gzip);
      }
      return reply.send(asset.body);
    },
  );

  // ---- Sign-in and sign-out -------------------------------------------------------------

  const loginPage = (next: string, username: string, error?: string, resumed?: ResumedForm) =>
    page(
      {},
      'Sign in',
      html`
      ${
        resumed
          ? html`<p class="notice" role="status" id="resume-notice">Your session ended before this was saved. Sign in again: what you typed is kept (passwords and secrets excepted), and shown to you to check and save.</p>`
          : html``
      }
      <form method="post" action="/ui/login" class="login">
        <input type="hidden" name="next" value="${next}">
        ${
          resumed
            ? html`${Object.entries(resumeFields(resumed)).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}`
            : html``
        }
        <div class="field"><label for="username">Username</label>
          <input id="username" name="username" autocomplete="username" required value="${username}" maxlength="255"></div>
        <div class="field"><label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024"></div>
        <button type="submit">Sign in</button>
      </form>`,
      [],
      error
        ? [
            {
              text: error,
              id: 'login-error',
              // The field a refusal names; a wrong password or a lock-out is about both.
              field:
                /\bpassword\b/.test(error) && !/\busername\b/.test(error) ? 'password' : 'username',
            },
          ]
        : [],
    );

  /**
   * The API's refusal of what was typed, as a sentence about the field it names ("The password
   * contains HTML or script content", "The username must not be empty").
   */
  const signInRefusal = (answer: ApiAnswer) => {
    const message = errorMessage(answer);
    const field = fieldNamedIn(['username', 'password'], message);
    if (!field) return message;
    const reason = fieldMessage(message, field);
    return `The ${field} ${reason.charAt(0).toLowerCase()}${reason.slice(1)}.`;
  };

  app.get('/login', routeOptions, async (request, reply) =>
    send(reply, loginPage(safeNext(one((request.query as Query).next)), '')),
  );

  app.post('/login', formOptions, async (request, reply) => {
    const body = (request.body ?? {}) as Form;
    const username = one(body.username);
    const next = safeNext(one(body.next));
    // A form is resumed only from a sign-in posted by a page of this very origin (the browser's
    // Sec-Fetch-Site, which a neighbouring origin cannot set), as this process carried it.
    const resumed =
      request.headers['sec-fetch-site'] === 'same-origin' ? readResumedForm(body, next) : undefined;
    const limited = await app.countRequest(request, reply);
    if (limited) {
      reply.headers(limited.headers ?? {});
      const wait = Number(limited.headers?.['retry-after']);
      return send(
        reply,
        loginPage(
          next,
          username,
          `Too many requests. Wait ${wait} second${wait === 1 ? '' : 's'} before trying again.`,
          resumed,
        ),
        429,
      );
    }
    // The API's own login: its lock-out, audit row and rules apply.
    const answer = await apiFor(
      app,
      options.tokens,
      request,
      undefined,
    )<{ token?: string }>('POST', '/users/login', {
      payload: { username, password: one(body.password) },
    });
    if (answer.status !== 200 || typeof answer.body?.token !== 'string') {
      const message = answer.status === 400 ? signInRefusal(answer) : errorMessage(answer);
      if (answer.status === 429) reply.headers(apiError(answer).headers);
      return send(
        reply,
        loginPage(next, username, message, resumed),
        answer.status === 429 ? 429 : 200,
      );
    }
    const claims = options.tokens.verify(answer.body.token);
    const { cookie } = await sessions.create(claims.sub, claims.pwd);
    reply.setCookie(SESSION_COOKIE, cookie, {
      ...cookieOptions,
      maxAge: options.tokens.ttlSeconds,
    });
    // Another account signing in on that browser never sees what the last one typed.
    if (!resumed || resumed.user !== claims.sub) return reply.redirect(next, 303);
    // The form goes back where it was sent, without a CSRF token: its route shows it again with
    // what was typed and this session's token (the stale-form answer), and saves nothing.
    return send(
      reply,
      page(
        {},
        'Signed in again',
        html`<p>What you typed before your session ended has <strong>not been saved</strong>.</p>
        <form method="post" action="${resumed.action}" class="resume">
          ${resumed.fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
          <button type="submit" autofocus>Show what I typed</button>
        </form>
        <p><a href="${next}">Leave it and go back</a></p>`,
      ),
    );
  });

  // A session that has already ended is simply gone: the browser lands on the sign-in page, not
  // on one asking to sign in so as to come back and sign out.
  app.post('/logout', formOptions, async (request, reply) => {
    // Counted, never refused: a user can always end their session.
    await app.countRequest(request, reply);
    const { signed, ended } = await sessionOf(request);
    if (signed) {
      requireCsrf(signed, request);
      await sessions.end(signed.session);
    } else if (ended) await sessions.end(ended);
    reply.clearCookie(SESSION_COOKIE, cookieOptions);
    return reply.redirect('/ui/login', 303);
  });

  // ---- Start page and search ------------------------------------------------------------

  app.get(
    '/',
    routeOptions,
    page$(async (signed, _request, reply) => {
      const readable = UI_RESOURCES.filter(
        (resource) => mayRead(resource, signed.user.role) && resource.name !== 'audit-logs',
      );
      const counts = await Promise.all(
        readable.map(async (resource) =>
          answered(
            await signed.api<{ meta?: { total_count?: number } }>(
              'GET',
              `/${resource.name}?limit=1&fields=id`,
            ),
          ),
        ),
      );
      return send(
        reply,
        page(
          signed.context,
          'Network inventory',
          html`
      <ul class="cards">${readable.map(
        (resource, index) => html`<li class="card">
        <a href="/ui/${resource.name}"><span class="count">${String(counts[index]?.body?.meta?.total_count ?? '—')}</span>
        <span>${resource.label}</span></a></li>`,
      )}</ul>`,
        ),
      );
    }),
  );

  app.get(
    '/search',
    routeOptions,
    page$(async (signed, request, reply) => {
      // Every `q` given is passed on: the API refuses a repeated one, and the page says why.
      const given = many((request.query as Query).q).map((text) => text.trim().slice(0, 200));
      const q = given[0] ?? '';
      const searchable = UI_RESOURCES.filter(
        (resource) => resource.definition.search && mayRead(resource, signed.user.role),
      );
      const answers =
        q === ''
          ? []
          : await Promise.all(
              searchable.map((resource) =>
                signed.api<{ data?: Row[]; meta?: { total_count?: number } }>(
                  'GET',
                  `/${resource.name}?${new URLSearchParams([...given.map((text): [string, string] => ['q', text]), ['limit', '10']])}`,
                ),
              ),
            );
      // A refused search text (400) is said beside the kept text; any other refusal (429) is
      // the page's own error, never a page of fewer results.
      const failed = answers.find((answer) => answer.status !== 200 && answer.status !== 400);
      if (failed) throw apiError(failed);
      const refused = answers.find((answer) => answer.status !== 200);
      const found = searchable
        .map((resource, index) => ({ resource, answer: answers[index] }))
        .filter(({ answer }) => (answer?.body?.data?.length ?? 0) > 0);
      const groups = await Promise.all(
        found.map(async (group) => ({
          ...group,
          names: await titleNames(signed.api, group.resource, group.answer?.body?.data ?? []),
        })),
      );
      const content =
        q === ''
          ? html`<p>Type a hostname, an IP address, a serial number or a name in the search box.</p>`
          : refused
            ? html`<p class="alert" role="alert">${errorMessage(refused)}</p>`
            : groups.length === 0
              ? html`<p>Nothing matches “${q}”.</p>`
              : groups.map(
                  ({ resource, answer, names }) => html`<section class="group"><h2>${resource.label}
            <span class="count">${String(answer?.body?.meta?.total_count ?? 0)}</span></h2>
            <ul>${(answer?.body?.data ?? []).map(
              (
                row,
              ) => html`<li>${resource.recordPages ? html`<a href="/ui/${resource.name}/${String(row.id)}">${titleOf(resource, row, names)}</a>` : titleOf(resource, row, names)}
              <span class="muted">${(resource.definition.search ?? [])
                .filter((field) => !resource.titleFields.includes(field))
                .map((field) => row[field])
                .filter((v) => v !== null && v !== undefined && v !== '')
                .slice(0, 3)
                .map((v) => isolate(textOf(v)))
                .join(' · ')}</span></li>`,
            )}</ul>
            <p><a href="/ui/${resource.name}?${String(new URLSearchParams({ q }))}">All matching ${resource.names.plural}</a></p></section>`,
                );
      return send(
        reply,
        page(signed.context, q === '' ? 'Search' : `Search: ${isolate(q)}`, content),
      );
    }),
  );

  // ---- Lists ------------------------------------------------------------------------------

  async function chosenColumns(signed: Signed, resource: UiResource): Promise<string[]> {
    const { rows } = await sql<{ columns: string[] }>`SELECT columns FROM ui_list_columns
      WHERE user_id = ${signed.user.id} AND resource = ${resource.name}`.execute(options.db);
    const shown = new Set(shownColumns(resource).map((column) => column.name));
    const chosen = (rows[0]?.columns ?? []).filter((name) => shown.has(name));
    return chosen.length > 0 ? chosen : [...resource.defaultColumns];
  }

  /**
   * Names of the records reference columns point to: one list call per referenced resource
   * (`?id__in=`, up to IN_MAX_VALUES ids, which is also the largest page), for the ids `known`
   * does not name already; a page's API calls each count against the client's rate limit.
   */
  async function referenceNames(
    api: ApiCall,
    rows: readonly Row[],
    columns: readonly UiColumn[],
    known: ReferenceNames = new Map(),
    /** How deep titles name their own references: a link's ends, each an interface of a device. */
    depth = 2,
  ): Promise<ReferenceNames> {
    const names: ReferenceNames = new Map(known);
    const wanted = new Map<string, Set<string>>();
    for (const column of columns) {
      if (!column.references || !uiResource(column.references)) continue;
      const ids = wanted.get(column.references) ?? new Set<string>();
      for (const row of rows) {
        const id = row[column.name];
        if (
          typeof id === 'string' &&
          PLAIN_UUID.test(id) &&
          !names.has(referenceKey(column.references, id))
        )
          ids.add(id);
      }
      wanted.set(column.references, ids);
    }
    await Promise.all(
      [...wanted].map(async ([target, ids]) => {
        const referenced = uiResource(target);
        if (!referenced || ids.size === 0) return;
        const chosen = [...ids].slice(0, IN_MAX_VALUES);
        const query = new URLSearchParams({
          id__in: chosen.join(','),
          limit: String(chosen.length),
        });
        const answer = answered(await api<{ data?: Row[] }>('GET', `/${target}?${query}`));
        const records = answer.body.data ?? [];
        const inner =
          depth > 1
            ? await referenceNames(api, records, titleReferences(referenced), new Map(), depth - 1)
            : new Map<string, string>();
        for (const record of records)
          names.set(referenceKey(target, String(record.id)), titleOf(referenced, record, inner));
      }),
    );
    return names;
  }

  /** What the titles of `rows` need: the titles of the records they reference (titleOf). */
  const titleNames = (api: ApiCall, resource: UiResource, rows: readonly Row[]) =>
    referenceNames(api, rows, titleReferences(resource));

  /**
   * In a list whose rows have no page of their own (the audit trail), an identifier (a
   * filterable `…_id` text: the record changed, the request) links to the rows sharing it: a
   * record's whole history, a deleted record's included, or everything one request did.
   */
  const sameValueLink = (resource: UiResource, column: UiColumn, row: Row) => {
    const value = row[column.name];
    if (resource.recordPages || !column.filterable || column.references) return undefined;
    if (!column.name.endsWith('_id') || typeof value !== 'string' || value === '') return undefined;
    // A record named by its resource in the row (`resource_type` beside `resource_id`, in the
    // audit log) links to its page; a deleted one's page links back to its entries here.
    const named = uiResource(String(row[column.name.replace(/_id$/, '_type')] ?? ''));
    if (named?.recordPages && PLAIN_UUID.test(value)) return `/ui/${named.name}/${value}`;
    return `/ui/${resource.name}?${new URLSearchParams({ [column.name]: value })}`;
  };

  const shownColumns = (resource: UiResource) =>
    resource.columns.filter((column) => !column.secret);

  app.get(
    '/:resource',
    routeOptions,
    page$(async (signed, request, reply) => {
      const resource = routeResource(signed, request);
      const query = request.query as Query;
      const asked = readListState(resource, query);
      // Records named in the filters (a location, an account's username) as their ids; a name
      // no record has is said instead of listing nothing, which would read as "none match".
      const { state, unknown } = await filtersByName(signed, resource, asked);
      const chosen = await chosenColumns(signed, resource);
      const columns = chosen
        .map((name) => resource.columns.find((column) => column.name === name))
        .filter((c): c is UiColumn => c !== undefined);
      const answer: ApiAnswer<{
        data?: Row[];
        meta?: { total_count?: number; next_cursor?: string | null };
        message?: string;
      }> =
        unknown.length > 0
          ? { status: 400, body: { message: unknown.join(' ') }, text: '', headers: {} }
          : await signed.api('GET', `/${resource.name}?${apiListQuery(state, chosen)}`);
      // A refused filter (400) is said above the kept filter form; any other refusal (429) is
      // the page's own error, never an empty list.
      if (answer.status !== 200 && answer.status !== 400) throw apiError(answer);
      const rows = answer.status === 200 ? (answer.body.data ?? []) : [];
      const names = await referenceNames(signed.api, rows, [
        ...columns,
        ...titleReferences(resource),
      ]);
      const writable = mayWrite(resource, signed.user.role);
      const total = answer.body?.meta?.total_count;
      const next = answer.body?.meta?.next_cursor ?? undefined;
      const previous = state.cursor !== undefined ? state.trail[state.trail.length - 1] : undefined;
      /**
       * A header's links: a column the list is sorted by turns its direction, keeping the other
       * sorts; another sorts by it alone, and "then by" adds it after the current sorts.
       */
      const sortLink = (column: UiColumn) => {
        const at = state.sortby.findIndex((sort) => sort.startsWith(`${column.name}:`));
        const direction = at >= 0 ? state.sortby[at]?.split(':')[1] : undefined;
        const sortby =
          at >= 0
            ? state.sortby.map((sort, index) =>
                index === at ? `${column.name}:${direction === 'asc' ? 'desc' : 'asc'}` : sort,
              )
            : [`${column.name}:asc`];
        const thenBy =
          at < 0 && state.sortby.length > 0 && state.sortby.length < MAX_SORTS
            ? listUrl(resource, state, {
                sortby: [...state.sortby, `${column.name}:asc`],
                cursor: undefined,
              })
            : undefined;
        return {
          href: listUrl(resource, state, { sortby, cursor: undefined }),
          sorted:
            direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined,
          // Its place among several sorts (1, 2, …); none when the list has one.
          position: at >= 0 && state.sortby.length > 1 ? ` ${at + 1}` : '',
          primary: at === 0,
          thenBy,
        };
      };
      const exportHref = `/ui/${resource.name}/export.csv?${exportParameters(state)}`;
      const filterChoices = await choicesFor(
        signed,
        resource.columns.filter((column) => column.filterable && column.references),
      );
      const accountColumn = resource.columns.find((column) => column.filterable && column.account);
      const accounts = accountColumn ? await accountChoices(signed) : undefined;
      if (accountColumn && accounts) filterChoices.set(accountColumn.name, accounts);
      const filterNames = await namesInFilters(signed, resource, state);
      const kept = keptFilters(resource, state);
      // Filters the fields cannot show (a range's second bound, a parameter the page does not
      // know) ride along as hidden inputs and are listed, each with a link that removes it.
      const keptList =
        kept.length === 0
          ? ''
          : html`<div class="kept-filters"><p id="kept-filters-heading">Also filtered by:</p><ul aria-labelledby="kept-filters-heading">${kept.map(
              (filter) =>
                html`<li><span class="chip">${filter.label}</span> <a href="${listUrl(resource, { ...state, filters: filter.without }, { cursor: undefined })}" aria-label="Remove the filter ${filter.label}">Remove</a></li>`,
            )}</ul></div>`;
      const filterForm = html`${keptList}<details class="filters"${state.filters.size > 0 ? ' open' : ''}><summary>Filters</summary>
      <form method="get" action="/ui/${resource.name}" class="filter-form">
        ${kept.map((filter) => html`<input type="hidden" name="${filter.name}" value="${filter.value}">`)}
        ${resource.searchable ? html`<div class="field"><label for="filter-q">Text</label><input id="filter-q" name="q" value="${state.filters.get('q') ?? ''}"></div>` : ''}
        ${resource.tagColumn ? html`<div class="field"><label for="filter-tags">Tags (all of)</label><input id="filter-tags" name="tags" value="${state.filters.getAll('tags').join(', ')}"></div>` : ''}
        ${resource.columns
          .filter((column) => column.filterable && column.kind !== 'tags')
          .map((column) => {
            const current = filterOf(state, column);
            const offered = filterChoices.get(column.name);
            // A reference is chosen by name, as in the edit forms: from a select of them, or,
            // past the first 100, typed with those suggested. A value the choices do not hold (a
            // list of ids, `true` for "is empty") is kept as typed.
            const known = offered?.some((choice) => choice.id === current.value.toLowerCase());
            const control = offered?.more
              ? html`${typedChoice({
                  id: `filter-${column.name}`,
                  name: column.name,
                  value: shownFilter(column, filterOf(asked, column), filterNames),
                  choices: offered,
                  attributes: html` aria-describedby="filter-${column.name}-hint"`,
                })}<p class="hint" id="filter-${column.name}-hint">${referenceHint(column)} For “is one of”, separate them with commas; put a name that holds a comma or a double quote in double quotes, that quote doubled.</p>`
              : offered
                ? html`<select id="filter-${column.name}" name="${column.name}">
              <option value="">any</option>
              ${current.value && !known ? html`<option value="${current.value}" selected>${current.value}</option>` : ''}
              ${offered.map((choice) => html`<option value="${choice.id}"${choice.id === current.value.toLowerCase() ? ' selected' : ''}>${choice.name}</option>`)}</select>`
                : html`<input id="filter-${column.name}" name="${column.name}" value="${current.value}">`;
            if (isEnumeration(column)) return enumerationFilter(column, state);
            return html`<div class="field filter"><label for="filter-${column.name}">${column.label}</label>
            <select name="${column.name}__op" aria-label="${column.label}: how to match">
              ${['exact', ...column.lookups].map((lookup) => html`<option value="${lookup}"${lookup === current.lookup ? ' selected' : ''}>${LOOKUP_LABELS[lookup] ?? lookup}</option>`)}
            </select>
            ${control}</div>`;
          })}
        ${state.sortby.map((sort) => html`<input type="hidden" name="sortby" value="${sort}">`)}
        <div class="field"><label for="filter-limit">Per page</label><select id="filter-limit" name="limit">${UI_PAGE_SIZES.map((size) => html`<option${size === state.limit ? ' selected' : ''}>${String(size)}</option>`)}</select></div>
        <div class="actions"><button type="submit">Apply</button> <a href="/ui/${resource.name}">Clear</a></div>
      </form></details>`;
      const columnForm = html`<details class="columns"><summary>Columns</summary>
      <form method="post" action="/ui/${resource.name}/columns">${csrfField(signed.context)}
        <fieldset><legend>Columns shown</legend>
        ${shownColumns(resource)
          .filter((column) => column.kind !== 'json')
          .map(
            (column) =>
              html`<label class="inline"><input type="checkbox" name="columns" value="${column.name}"${chosen.includes(column.name) ? ' checked' : ''}> ${column.label}</label>`,
          )}
        </fieldset><button type="submit">Save columns</button></form></details>`;
      const table = html`<table class="list"><caption class="visually-hidden">${resource.label}</caption><thead><tr>
        ${writable ? html`<th scope="col"><input type="checkbox" class="select-all" aria-label="Select all rows"></th>` : ''}
        ${columns.map((column) => {
          if (!column.sortable) return html`<th scope="col">${column.label}</th>`;
          const link = sortLink(column);
          // aria-sort on the first sort's header only (one per table).
          return html`<th scope="col"${link.primary && link.sorted ? html` aria-sort="${link.sorted}"` : ''}><a href="${link.href}">${column.label}${link.sorted === 'ascending' ? ' ▲' : link.sorted === 'descending' ? ' ▼' : ''}${link.position}</a>${
            link.thenBy
              ? html` <a class="then-by" href="${link.thenBy}">+<span class="visually-hidden"> then by ${column.label}</span></a>`
              : ''
          }</th>`;
        })}</tr></thead>
      <tbody>${rows.map(
        (row, index) => html`<tr>
        ${writable ? html`<td><input type="checkbox" name="id" value="${String(row.id)}" aria-label="Select ${titleOf(resource, row, names)}"></td>` : ''}
        ${columns.map((column, position) =>
          position === 0 && resource.recordPages
            ? html`<td><a href="/ui/${resource.name}/${String(row.id)}">${rowLinkText(resource, column, row, names)}</a></td>`
            : html`<td${column.kind === 'timestamp' ? html` class="time"` : ''}>${listCell(column, row[column.name], names, sameValueLink(resource, column, row))}</td>`,
        )}
        </tr>${void index}`,
      )}
      </tbody></table>`;
      const filtered = [...state.filters.keys()].length > 0;
      const empty =
        answer.status === 200 && rows.length === 0
          ? html`<p class="empty">${
              state.cursor !== undefined
                ? `No more ${resource.names.plural}.`
                : filtered
                  ? `No ${resource.names.plural} match these filters.`
                  : `No ${resource.names.plural} yet.`
            }</p>`
          : '';
      const bulk = writable
        ? // A GET: the page it opens only lists the selection (no token in the address, none
          // needed), so Back and Reload show it again instead of posting or failing.
          html`<form method="get" action="/ui/${resource.name}/bulk" id="bulk-form">
          <input type="hidden" name="back" value="${listUrl(resource, state, { cursor: undefined })}">
          <div class="bulk-bar"><span>With selected:</span>
            <button type="submit" name="action" value="edit">Edit selected</button>
            <button type="submit" name="action" value="delete" class="danger">Delete selected</button></div>
          ${table}</form>`
        : table;
      const paging = html`<nav class="paging" aria-label="Pages">
      ${previous !== undefined ? html`<a rel="prev" href="${listUrl(resource, state, { cursor: previous || undefined, trail: state.trail.slice(0, -1) })}">Previous</a>` : html`<span class="disabled">Previous</span>`}
      ${next ? html`<a rel="next" href="${listUrl(resource, state, { cursor: next, trail: [...state.trail, state.cursor ?? ''] })}">Next</a>` : html`<span class="disabled">Next</span>`}
      </nav>`;
      const error =
        answer.status === 200
          ? ''
          : html`<p class="alert" role="alert">${plainMessage(resource, errorMessage(answer))}</p>`;
      const actions = html`<div class="page-actions">
      ${
        writable
          ? html`<a class="button" href="/ui/${resource.name}/new">Add ${resource.names.singular}</a>
        <a class="button" href="/ui/${resource.name}/import">Import CSV</a>`
          : ''
      }
      <a class="button" href="${exportHref}">Export CSV</a></div>`;
      return send(
        reply,
        page(
          signed.context,
          resource.label,
          html`${actions}
      <p class="total" id="total-count">${total === undefined ? '' : countOf(resource, total)}</p>
      ${error}${filterForm}${columnForm}${rows.length > 0 ? bulk : empty}${paging}`,
        ),
      );
    }),
  );

  app.post(
    '/:resource/columns',
    formOptions,
    form$(async (signed, request, reply) => {
      const resource = routeResource(signed, request);
      const allowed = new Set(shownColumns(resource).map((column) => column.name));
      const columns = [...new Set(many((request.body as Form).columns))].filter((name) =>
        allowed.has(name),
      );
      if (columns.length === 0) {
        await sql`DELETE FROM ui_list_columns WHERE user_id = ${signed.user.id} AND resource = ${resource.name}`.execute(
          options.db,
        );
      } else {
        await sql`INSERT INTO ui_list_columns (user_id, resource, columns) VALUES (${signed.user.id}, ${resource.name}, ${sql.val(columns)}::text[])
        ON CONFLICT (user_id, resource) DO UPDATE SET columns = excluded.columns`.execute(
          options.db,
        );
      }
      return reply.redirect(`/ui/${resource.name}`, 303);
    }),
  );

  app.get(
    '/:resource/export.csv',
    routeOptions,
    page$(async (signed, request, reply) => {
      const resource = routeResource(signed, request);
      const { state, unknown } = await filtersByName(
        signed,
        resource,
        readListState(resource, request.query as Query),
      );
      if (unknown.length > 0) throw new ApiError(400, unknown.join(' '));
      const chosen = await chosenColumns(signed, resource);
      const query = apiExportQuery(state, chosen);
      // The same filter as a one-row list first: a filter the database refuses is then a page
      // saying why, instead of a download that fails once its headers are sent.
      const check = new URLSearchParams(query);
      check.delete('format');
      check.set('limit', '1');
      const checked = await signed.api('GET', `/${resource.name}?${check}`);
      if (checked.status !== 200) {
        const refused = apiError(checked);
        throw new ApiError(
          refused.statusCode,
          plainMessage(resource, refused.message),
          refused.headers,
        );
      }
      const answer = await signed.api('GET', `/${resource.name}?${query}`);
      answered(answer);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${resource.name}.csv"`)
        .header('cache-control', 'no-store')
        .send(answer.text);
    }),
  );

  // ---- Bulk edit and delete ---------------------------------------------------------------

  /**
   * The selected records as they are now, each with its ETag (what the batch is checked against),
   * and a sentence naming how many of the selection could not be read (deleted meanwhile), so the
   * page never lists fewer records than were selected without saying so. The records come from
   * one list call per IN_MAX_VALUES ids, not one call per record: the API's rate limit counts
   * every call a page makes, and its default (100 a minute) is one full page of rows. A list
   * answers no ETags: each record's tag is read from its row version before the list call (the
   * API's own tag, ROW_TAG), so a change between the two reads makes the batch refuse (412)
   * rather than apply to a version the page did not show.
   */
  async function selectedRecords(signed: Signed, resource: UiResource, ids: readonly string[]) {
    const selected = [...new Set(ids.map((id) => id.toLowerCase()))];
    if (selected.length > MAX_BATCH_ITEMS) {
      throw new ApiError(400, `Select at most ${MAX_BATCH_ITEMS} records at once`);
    }
    const valid = selected.filter((id) => PLAIN_UUID.test(id));
    const tags = await rowTags(options.db, resource.definition, valid);
    const rows = new Map<string, Row>();
    for (let start = 0; start < valid.length; start += IN_MAX_VALUES) {
      const chunk = valid.slice(start, start + IN_MAX_VALUES);
      const query = new URLSearchParams({ id__in: chunk.join(','), limit: String(chunk.length) });
      const answer = answered(
        await signed.api<{ data?: Row[] }>('GET', `/${resource.name}?${query}`),
      );
      for (const row of answer.body.data ?? []) rows.set(String(row.id).toLowerCase(), row);
    }
    const found = valid.flatMap((id) => {
      const row = rows.get(id);
      const tag = tags.get(id);
      return row ? [{ row, etag: tag === undefined ? '' : strongEtag(tag) }] : [];
    });
    const names = await titleNames(
      signed.api,
      resource,
      found.map(({ row }) => row),
    );
    const records = found.map((record) => ({
      ...record,
      title: titleOf(resource, record.row, names),
    }));
    const missing = selected.length - records.length;
    const unread =
      missing === 0
        ? undefined
        : `${missing} of the ${selected.length} selected ${resource.names.plural} could not be read (deleted meanwhile?): ${missing === 1 ? 'it is' : 'they are'} not listed below and will not be changed.`;
    return { records, unread };
  }

  /** The fields of a record's form: every writable column, a secret one as write-only. */
  const editableColumns = (resource: UiResource) =>
    resource.columns.filter((column) => column.writable);
  /** What a bulk edit may set to one value on many records: no secret. */
  const bulkColumns = (resource: UiResource) =>
    editableColumns(resource).filter((column) => !column.secret);

  /**
   * Where a bulk page returns to: the list it was opened from, with its filters, sort and page
   * size (`back`), when that is a page of this resource's list; else the list itself.
   */
  function backTo(resource: UiResource, given: unknown): string {
    const list = `/ui/${resource.name}`;
    const text = one(given);
    if (text === '' || text.length > 8192) return list;
    try {
      const url = new URL(text, 'http://inventory.invalid');
      return url.origin === 'http://inventory.invalid' && url.pathname === list
        ? `${url.pathname}${url.search}`
        : list;
    } catch {
      return list;
    }
  }

  function bulkPage(
    signed: Signed,
    resource: UiResource,
    action: string,
    records: Array<{ row: Row; etag: string; title: string }>,
    error?: string | Html,
    values: Form = {},
  ) {
    const back = backTo(resource, values.back);
    const backField = html`<input type="hidden" name="back" value="${back}">`;
    const list = html`<ul class="selected">${records.map(
      ({
        row,
        etag,
        title,
      }) => html`<li>${resource.recordPages ? html`<a href="/ui/${resource.name}/${String(row.id)}">${title}</a>` : title}
      <input type="hidden" name="id" value="${String(row.id)}"><input type="hidden" name="etag" value="${etag}"></li>`,
    )}</ul>`;
    const alert = error ? html`<p class="alert" role="alert">${error}</p>` : '';
    if (action === 'delete') {
      return page(
        signed.context,
        `Delete ${countOf(resource, records.length)}?`,
        html`${alert}
        <form method="post" action="/ui/${resource.name}/bulk-delete">${csrfField(signed.context)}${backField}
          <p>These records will be deleted:</p>${list}
          <button type="submit" class="danger">Delete ${String(records.length)} records</button> <a href="${back}">Cancel</a></form>`,
        [{ label: resource.label, href: back }, { label: 'Delete' }],
      );
    }
    // A field of a few values (a status) is a choice of them; any other is typed, one at a time.
    const choices = bulkColumns(resource).filter(isChoice);
    const fields = bulkColumns(resource).filter(
      (column) => column.kind !== 'json' && !isChoice(column),
    );
    return page(
      signed.context,
      `Edit ${countOf(resource, records.length)}`,
      html`${alert}
      <form method="post" action="/ui/${resource.name}/bulk-edit">${csrfField(signed.context)}${backField}
        <p>Set fields on every selected record; what is left unchanged is not changed:</p>${list}
        ${choices.map((column) => bulkChoice(column, one(values[`set_${column.name}`])))}
        <div class="field"><label for="bulk-field">Other field</label><select id="bulk-field" name="field">
          <option value="">leave unchanged</option>
          ${fields.map((column) => html`<option value="${column.name}"${one(values.field) === column.name ? ' selected' : ''}>${column.label}</option>`)}
          ${resource.tagColumn ? html`<option value="add_tags"${one(values.field) === 'add_tags' ? ' selected' : ''}>Add tags</option><option value="remove_tags"${one(values.field) === 'remove_tags' ? ' selected' : ''}>Remove tags</option>` : ''}
        </select></div>
        <div class="field"><label for="bulk-value">New value</label><textarea id="bulk-value" name="value" rows="2" aria-describedby="bulk-value-hint">
${one(values.value)}</textarea>
          <p class="hint" id="bulk-value-hint">Empty clears the field. Text of several lines (an address, a description) keeps its line breaks. Tags: comma-separated. A reference (such as a location): its name or its id.</p></div>
        <button type="submit">Apply to ${String(records.length)} records</button> <a href="${back}">Cancel</a></form>`,
      [{ label: resource.label, href: back }, { label: 'Bulk edit' }],
    );
  }

  /** The bulk edit or delete page of the records a list's rows selected (`id`, `action`). */
  const bulkSelection = async (
    signed: Signed,
    request: FastifyRequest,
    reply: FastifyReply,
    fields: Form,
  ) => {
    const resource = writableResource(signed, request);
    const ids = many(fields.id);
    if (ids.length === 0) return reply.redirect(backTo(resource, fields.back), 303);
    const action = one(fields.action) === 'delete' ? 'delete' : 'edit';
    const { records, unread } = await selectedRecords(signed, resource, ids);
    return send(
      reply,
      bulkPage(signed, resource, action, records, unread, { back: one(fields.back) }),
    );
  };
  app.get(
    '/:resource/bulk',
    routeOptions,
    page$((signed, request, reply) => bulkSelection(signed, request, reply, request.query as Form)),
  );
  // The same selection posted, as list pages opened before it became a GET do: sent on to the
  // GET page (303), so Back and Reload do not post; a selection too long for an address (more
  // than a list page's 100 rows, which no list sends) is shown as the answer.
  app.post(
    '/:resource/bulk',
    formOptions,
    form$((signed, request, reply) => {
      const body = request.body as Form;
      const resource = writableResource(signed, request);
      const ids = many(body.id);
      if (ids.length > 0 && ids.length <= IN_MAX_VALUES) {
        const query = new URLSearchParams([
          ['action', one(body.action) === 'delete' ? 'delete' : 'edit'],
          ...ids.map((id): [string, string] => ['id', id]),
          ...(one(body.back) ? [['back', backTo(resource, body.back)] as [string, string]] : []),
        ]);
        return Promise.resolve(reply.redirect(`/ui/${resource.name}/bulk?${query}`, 303));
      }
      return bulkSelection(signed, request, reply, body);
    }),
  );

  /**
   * A batch's refusal in words: a record by its title, not its id; an item by its record's
   * title, not its position from 0; a record changed since the page was read (412) named and
   * linked, its change history being where what changed is told.
   */
  function bulkRefusal(
    resource: UiResource,
    ids: readonly string[],
    records: ReadonlyArray<{ row: Row; title: string }>,
    answer: ApiAnswer,
    done: 'changed' | 'deleted',
    unread: string | undefined,
  ): Html {
    const titleOfId = (id: string | undefined) =>
      records.find((record) => String(record.row.id).toLowerCase() === id?.toLowerCase())?.title;
    const message = errorMessage(answer);
    if (answer.status === 412) {
      const id = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.exec(message)?.[0];
      const title = titleOfId(id);
      const named =
        id && title
          ? resource.recordPages
            ? html`<a href="/ui/${resource.name}/${id.toLowerCase()}">${title}</a>`
            : html`${title}`
          : html`one of the selected ${resource.names.plural}`;
      return html`Nothing was ${done}: ${named} was changed by someone else after this page was read${resource.recordPages ? ' (its page shows what changed, in its change history)' : ''}. The ${resource.names.plural} below are now as they are at this moment; ${done === 'changed' ? 'apply' : 'delete'} again to go ahead with them.${unread ? ` ${unread}` : ''}`;
    }
    return html`${plainMessage(resource, message, (index) => titleOfId(ids[index]))}${unread ? ` ${unread}` : ''}`;
  }

  /** A bulk form's records, as listed on it: the ids, and the ETags as read for the page. */
  const bulkInput = (signed: Signed, request: FastifyRequest) => {
    const resource = writableResource(signed, request);
    const body = request.body as Form;
    return {
      resource,
      body,
      ids: many(body.id),
      backToList: { redirect: backTo(resource, body.back) },
    };
  };

  submit('/:resource/bulk-edit', {
    async read(signed, request) {
      const input = bulkInput(signed, request);
      const { resource, body } = input;
      const etags = many(body.etag);
      const field = one(body.field);
      const column = bulkColumns(resource).find((candidate) => candidate.name === field);
      const tagChange = (field === 'add_tags' || field === 'remove_tags') && resource.tagColumn;
      // Each choice (a status) set to one of its values, or emptied; left unchanged, not sent.
      const chosen: Record<string, unknown> = {};
      // A value the select does not offer (a form altered, or older than the declaration) is
      // refused here, in the select's words: none of the API's.
      let outsideChoices: string | undefined;
      for (const choice of bulkColumns(resource).filter(isChoice)) {
        const picked = one(body[`set_${choice.name}`]);
        if (picked === '') continue;
        const offered = choice.kind === 'boolean' ? ['true', 'false'] : (choice.choices ?? []);
        if (picked === BULK_CLEAR && !choice.required && !choice.notNull)
          chosen[choice.name] = null;
        else if (offered.includes(picked)) chosen[choice.name] = parseFormValue(choice, picked);
        else
          outsideChoices ??= `${choice.label}: choose one of: ${
            choice.kind === 'boolean' ? 'yes, no' : offered.join(', ')
          }.`;
      }
      if (!column && !tagChange && field !== '')
        throw new ApiError(400, 'Choose a field to change');
      const changes = { ...chosen };
      if (!column && !tagChange) {
        const items = input.ids.map((id, index) => ({
          id,
          ...changes,
          ...(etags[index] ? { etag: etags[index] } : {}),
        }));
        return { ...input, items, fields: Object.keys(changes), outsideChoices };
      }
      const value = tagChange
        ? parseFormValue({ kind: 'tags' } as UiColumn, one(body.value))
        : parseFormValue(
            column as UiColumn,
            column?.kind === 'list'
              ? one(body.value)
                  .split(/\s*,\s*/)
                  .filter(Boolean)
              : one(body.value),
          );
      // A reference may be given by its record's name (`dc-east`, `sw-01 · xe-0/0/0`), as the
      // filters and forms show it: any record with that title (idOfTitle).
      let typed = value;
      const target = column?.references ? uiResource(column.references) : undefined;
      if (target && typeof value === 'string' && !PLAIN_UUID.test(value)) {
        typed = (await idOfTitle(signed, target, value)) ?? value;
      }
      changes[field] = typed;
      const items = input.ids.map((id, index) => ({
        id,
        ...changes,
        ...(etags[index] ? { etag: etags[index] } : {}),
      }));
      return { ...input, items, fields: Object.keys(changes), outsideChoices };
    },
    call: (signed, { resource, items, fields, outsideChoices }) => {
      // Everything left unchanged, or a choice not offered: the form says so, nothing is sent.
      const refused =
        outsideChoices ??
        (fields.length === 0
          ? 'Choose a field to change: every field was left unchanged.'
          : undefined);
      return refused === undefined
        ? signed.api('PATCH', `/${resource.name}`, { payload: items })
        : Promise.resolve({ status: 400, body: { message: refused }, text: '', headers: {} });
    },
    accepted: ({ backToList, resource, items, fields }) => {
      const labelOf = (field: string) =>
        bulkColumns(resource).find((column) => column.name === field)?.label ?? field;
      const set = fields.filter((field) => field !== 'add_tags' && field !== 'remove_tags');
      const tags = fields.includes('add_tags')
        ? 'added tags'
        : fields.includes('remove_tags')
          ? 'removed tags'
          : '';
      const count = countOf(resource, items.length);
      const flash =
        set.length === 0
          ? `${tags === 'added tags' ? 'Added tags to' : 'Removed tags from'} ${count}.`
          : `Set ${set.map(labelOf).join(', ')}${tags ? ` and ${tags}` : ''} on ${count}.`;
      return { ...backToList, flash };
    },
    async refused(signed, { resource, ids, body }, answer) {
      const { records, unread } = await selectedRecords(signed, resource, ids);
      return bulkPage(
        signed,
        resource,
        'edit',
        records,
        bulkRefusal(resource, ids, records, answer, 'changed', unread),
        body,
      );
    },
  });

  submit('/:resource/bulk-delete', {
    read: bulkInput,
    call: (signed, { resource, ids }) =>
      signed.api('DELETE', `/${resource.name}`, { payload: ids }),
    accepted: ({ backToList, resource, ids }) => ({
      ...backToList,
      flash: `Deleted ${countOf(resource, new Set(ids).size)}.`,
    }),
    async refused(signed, { resource, ids, body }, answer) {
      const { records, unread } = await selectedRecords(signed, resource, ids);
      return bulkPage(
        signed,
        resource,
        'delete',
        records,
        bulkRefusal(resource, ids, records, answer, 'deleted', unread),
        { back: one(body.back) },
      );
    },
  });

  // ---- Import -----------------------------------------------------------------------------

  /**
   * What the rows of a CSV with ids (an export, edited) do: change the records the ids name,
   * unless the user chooses to create them as new records, the ids not used. Every resource the
   * interface writes has a batch update (test/ui/import-bulk.test.ts).
   */
  type IdRows = {
    purpose: CsvPurpose;
    /** Whether the page shows `purpose` chosen; else neither option is, and one must be. */
    checked: boolean;
  };
  const idRowsChoice = (resource: UiResource, rows: IdRows) => {
    const checked = (purpose: CsvPurpose) =>
      rows.checked && rows.purpose === purpose ? ' checked' : '';
    return html`<fieldset class="field"><legend>The rows have ids</legend>
      <label class="inline"><input type="radio" name="id_rows" value="update"${checked('update')}> Update the ${resource.names.plural} these ids name (an empty cell leaves its field as it is)</label>
      <label class="inline"><input type="radio" name="id_rows" value="create"${checked('create')}> Create them as new ${resource.names.plural} (the id column is not used)</label>
    </fieldset>`;
  };

  const importPage = (
    signed: Signed,
    resource: UiResource,
    csv: string,
    content: Html | string,
    status?: Html,
    /** A CSV with ids (an export): what its rows do, as chosen (idRowsChoice). */
    idRows?: IdRows,
  ) =>
    page(
      signed.context,
      `Import ${resource.names.plural}`,
      html`${status ?? ''}
      <p>Paste CSV with a header row naming the fields (${resource.columns
        .filter((c) => c.writable && !c.secret)
        .map((c) => c.name)
        .join(
          ', ',
        )}); each further row is one record. Nothing is written unless every row is valid. With an <code>id</code> column (an export of this list, edited), each row changes the ${resource.names.singular} its id names instead, in the fields whose cells are not empty.</p>
      <form method="post" action="/ui/${resource.name}/import" class="import">${csrfField(signed.context)}
        <div class="field"><label for="csv-file">CSV file (optional)</label><input id="csv-file" type="file" accept=".csv,text/csv" data-fills="csv-text" data-note="csv-file-note" aria-describedby="csv-file-note">
          <p class="warning" id="csv-file-note" role="status" hidden></p></div>
        <div class="field"><label for="csv-text">CSV data</label><textarea id="csv-text" name="csv" rows="10">${csv}</textarea></div>
        ${idRows ? idRowsChoice(resource, idRows) : ''}
        <button type="submit" name="step" value="preview">Preview</button>
        <button type="submit" name="step" value="import">Import</button>
      </form>${content}`,
      [{ label: resource.label, href: `/ui/${resource.name}` }, { label: 'Import' }],
    );

  app.get(
    '/:resource/import',
    routeOptions,
    page$(async (signed, request, reply) => {
      const resource = writableResource(signed, request);
      return send(reply, importPage(signed, resource, '', ''));
    }),
  );

  /** What the API's content check refuses in a row's record, as ` (field): why`. */
  const refusedText = (record: Row) => {
    const markup = findMarkup(record);
    if (markup) return ` (${formatPath(markup.path)}): ${MARKUP}`;
    const broken = findUnpairedSurrogate(record);
    return broken ? ` (${formatPath(broken.path)}): ${NOT_UNICODE}` : undefined;
  };

  /** Per resource, purpose and field: the row's schema for that one field (fieldSchema). */
  const fieldSchemas = new Map<string, object>();
  /** A row schema checking only `field` (its rule, and whether it is required). */
  function fieldSchema(
    resource: UiResource,
    purpose: CsvPurpose,
    schema: RecordSchema,
    field: string,
  ): object {
    const key = `${resource.name}\0${purpose}\0${field}`;
    let one = fieldSchemas.get(key);
    if (!one) {
      one = {
        type: 'object',
        properties: { [field]: schema.properties[field] },
        required: schema.required?.includes(field) ? [field] : [],
      };
      fieldSchemas.set(key, one);
    }
    return one;
  }

  /**
   * Every problem of a record read from a CSV row, as ` (field): why`: each field's own (its
   * schema's rule and the content check's), in the header's order, then a required field the
   * header lacks, then any rule across fields the whole record's schema finds.
   */
  function recordProblems(
    resource: UiResource,
    purpose: CsvPurpose,
    header: readonly string[],
    record: Row,
  ): string[] {
    const schema = csvRowSchema(resource.definition, purpose) as RecordSchema;
    const problems: string[] = [];
    const fields = [
      // Own fields only: a header `constructor` is no field (the whole record's check names it).
      ...new Set(
        [...header, ...(schema.required ?? [])].filter((f) => Object.hasOwn(schema.properties, f)),
      ),
    ];
    for (const field of fields) {
      const given = Object.hasOwn(record, field);
      const own = given ? { [field]: record[field] } : {};
      const problem =
        matchingErrors(fieldSchema(resource, purpose, schema, field), own) ??
        (given ? refusedText(own) : undefined);
      if (problem) problems.push(problem);
    }
    const whole = matchingErrors(schema, record) ?? refusedText(record);
    if (whole && !problems.includes(whole)) problems.push(whole);
    // A rule across fields the write applies past the schema: two forms of one value that
    // disagree (an interface's speed and speed_mbps). Checked on a record the schema took: a
    // value it refused is said already, and may not convert.
    if (problems.length === 0) {
      const disagreement = disagreeingForms(resource.definition, record);
      if (disagreement) problems.push(` (${disagreement.column}): ${disagreement.reason}`);
    }
    return problems;
  }

  /**
   * The rows of a CSV as the API would read them, each with its problems: the schema's, and
   * the content check's (HTML, entities, broken Unicode), which refuses the import as a whole.
   * A CSV whose rows have ids is read as updates, unless `idRowsChosen` says they are new
   * records; what its rows do is returned beside a header's error too, so the page keeps the
   * choice.
   */
  function preview(resource: UiResource, text: string, idRowsChosen: string | undefined) {
    let read: CsvRows;
    try {
      read = readCsvRows(text, true);
    } catch (error) {
      return { error: `Malformed CSV: ${(error as Error).message}` };
    }
    const { header, rows } = read;
    if (!header || rows.length === 0)
      return { error: 'CSV needs a header row and at least one row' };
    // A CSV with ids (an export of this service): its rows change the records the ids name, or,
    // when so chosen, are new records.
    const idAt = header.indexOf('id');
    const hasIds = idAt >= 0 && rows.some((row) => (row.cells[idAt] ?? '').trim() !== '');
    const idRows: IdRows | undefined = hasIds
      ? { purpose: idRowsChosen === 'create' ? 'create' : 'update', checked: true }
      : undefined;
    if (rows.length > MAX_BATCH_ITEMS) {
      return {
        error: `CSV has ${rows.length} rows; at most ${MAX_BATCH_ITEMS} per import`,
        idRows,
      };
    }
    const purpose = idRows?.purpose ?? 'create';
    const headerProblem = csvHeaderProblem(resource.definition, header, purpose);
    if (headerProblem) return { error: headerProblem, idRows };
    const ignored = csvIgnoredFields(purpose);
    /** Each id an update's rows name, and the line of the first row naming it. */
    const idLines = new Map<string, number>();
    return {
      header,
      idRows,
      rows: rows.map(({ cells: row, line }) => {
        const record: Row = csvRecord(resource.definition, header, row, ignored, purpose);
        // An update's row that names no record, one named already, changes nothing or gives
        // tag changes beside tags: said so alone, as the API says it.
        const unusable =
          row.length === header.length && purpose === 'update'
            ? updateRowProblem(resource.definition, record, idLines, line)
            : undefined;
        const problems =
          row.length !== header.length
            ? [`: has ${row.length} cells, the header ${header.length}`]
            : unusable
              ? [unusable]
              : recordProblems(resource, purpose, header, record);
        // Each cell as it will be stored: a formula's neutralising `'` (`'=SUM(1)`, as the
        // export writes it) is removed by the import, so the preview shows it removed too.
        const shown = row.map((cell, position) => {
          const field = header[position] ?? '';
          if (ignored.has(field)) return cell;
          const value = cellValue(resource.definition, field, cell, purpose);
          return value === undefined ? '' : textOf(value);
        });
        return { number: line, cells: shown, problems };
      }),
    };
  }

  /** "All 3 rows are valid", "The row is valid". */
  const rowsValid = (count: number) =>
    count === 1 ? 'The row is valid' : `All ${count.toLocaleString('en')} rows are valid`;

  app.post(
    '/:resource/import',
    // A pasted CSV is what was typed: it is kept past the rate limit and through a new sign-in
    // (as `submit` keeps a form), the stale token then showing it again, never importing it. A
    // CSV too large for the sign-in form to carry is not carried (formToResume).
    { ...importOptions, config: { ...importOptions.config, resumableForm: true } },
    page$(async (signed, request, reply) => {
      const resource = writableResource(signed, request);
      const body = request.body as Form;
      const csv = one(body.csv);
      // What rows with ids do, when the form said it: an update is made only once the user has
      // seen the choice, which every page showing such a CSV keeps.
      const chosen = one(body.id_rows);
      const choice: IdRows | undefined =
        chosen === 'update' || chosen === 'create' ? { purpose: chosen, checked: true } : undefined;
      if (!csrfMatches(signed.session, body[CSRF_FIELD])) {
        // As `submit` does: the pasted CSV comes back with this session's token.
        const alert = html`<p class="alert" role="alert">${STALE_FORM_MESSAGE}</p>`;
        return send(reply, importPage(signed, resource, csv, '', alert, choice), 403);
      }
      const size = Buffer.byteLength(csv);
      if (size > options.bodyLimit) {
        const alert = html`<p class="alert" role="alert">The CSV is ${Math.ceil(size / 1024).toLocaleString('en')} KB: at most ${importLimitText} (BODY_LIMIT) can be imported at once. Nothing was imported; split it and import each part.</p>`;
        return send(reply, importPage(signed, resource, csv, '', alert, choice), 413);
      }
      const checked = preview(resource, csv, chosen);
      const table = (problemRow?: number, apiProblem?: string) =>
        'rows' in checked && checked.rows
          ? html`<table class="list preview"><caption>Preview: ${String(checked.rows.length)} rows</caption><thead><tr><th scope="col">Row</th>${checked.header.map((field) => html`<th scope="col">${field}</th>`)}<th scope="col">Problem</th></tr></thead>
        <tbody>${checked.rows.map((row) => {
          const problems =
            row.problems.length > 0
              ? row.problems
              : row.number === problemRow && apiProblem
                ? [apiProblem]
                : [];
          return html`<tr${problems.length > 0 ? html` class="invalid"` : ''}><td>${String(row.number)}</td>${row.cells.map((cell) => html`<td>${cell}</td>`)}<td>${
            problems.length === 0
              ? 'OK'
              : problems.map(
                  (problem, index) =>
                    html`${index > 0 ? html`<br>` : ''}<span class="error">Row ${String(row.number)}${problem}</span>`,
                )
          }</td></tr>`;
        })}</tbody></table>`
          : '';
      if ('error' in checked && checked.error) {
        return send(
          reply,
          importPage(
            signed,
            resource,
            csv,
            '',
            html`<p class="alert" role="alert">${checked.error}</p>`,
            // A file refused before its ids were read (malformed, no rows) keeps the choice.
            checked.idRows ?? choice,
          ),
          400,
        );
      }
      const invalid = checked.rows?.filter((row) => row.problems.length > 0) ?? [];
      const idRows = checked.idRows;
      const updating = idRows?.purpose === 'update';
      // Import pressed on a CSV with ids whose page showed no choice (pasted and imported at
      // once): nothing is written until the choice has been seen.
      const unchosen = idRows !== undefined && choice === undefined;
      const importing = one(body.step) === 'import';
      if (!importing || invalid.length > 0 || unchosen) {
        const rowCount = checked.rows?.length ?? 0;
        const status =
          invalid.length > 0
            ? html`<p class="alert" role="alert">${String(invalid.length)} of ${String(rowCount)} rows have errors; nothing was ${updating ? 'changed' : 'imported'}.</p>`
            : importing && unchosen
              ? html`<p class="alert" role="alert">Nothing was imported. The rows have ids: choose below whether they update the ${resource.names.plural} these ids name or are created as new ${resource.names.plural}, then press Import.</p>`
              : updating
                ? html`<p class="notice" role="status">${rowsValid(rowCount)}. Press Import to update the ${countOf(resource, rowCount)} ${rowCount === 1 ? 'it names' : 'they name'}.</p>`
                : html`<p class="notice" role="status">${rowsValid(rowCount)}. Press Import to write ${rowCount === 1 ? 'it' : 'them'}${idRows ? (rowCount === 1 ? html` as a new ${resource.names.singular}` : html` as new ${resource.names.plural}`) : ''}.</p>`;
        // Asked to choose, the page checks neither option: Import again without choosing
        // writes nothing either.
        const shown = idRows && importing && unchosen ? { ...idRows, checked: false } : idRows;
        return send(
          reply,
          importPage(signed, resource, csv, table(), status, shown),
          invalid.length > 0 || (importing && unchosen) ? 400 : 200,
        );
      }
      const answer = await signed.api<Row[] | { count?: number }>(
        updating ? 'PATCH' : 'POST',
        `/${resource.name}`,
        { payload: csv, headers: { 'content-type': 'text/csv' } },
      );
      if (answer.status === 201 || (updating && answer.status === 200)) {
        // Post, redirect, get: a reload of the list does not import again (which the database
        // would refuse as duplicates), and Back returns to the import page, not to a post.
        const count = Array.isArray(answer.body)
          ? answer.body.length
          : Number(answer.body?.count ?? 1);
        setFlash(
          reply,
          signed,
          `${updating ? 'Updated' : 'Imported'} ${countOf(resource, count)}.`,
        );
        return reply.redirect(`/ui/${resource.name}`, 303);
      }
      const message = errorMessage(answer);
      const rowMatch = /^Row (\d+)/.exec(message);
      return send(
        reply,
        importPage(
          signed,
          resource,
          csv,
          table(rowMatch ? Number(rowMatch[1]) : undefined, message.replace(/^Row \d+/, '')),
          // A stale etag's message (412) says already that nothing was changed.
          html`<p class="alert" role="alert">${message}${answer.status === 412 ? '' : `; nothing was ${updating ? 'changed' : 'imported'}`}.</p>`,
          idRows,
        ),
        answer.status,
      );
    }),
  );

  // ---- Create and edit ----------------------------------------------------------------------

  /** The choices of a form's reference selects: its writable reference columns. */
  const referenceChoices = (signed: Signed, resource: UiResource) =>
    choicesFor(signed, editableColumns(resource));

  /**
   * The first 100 records (REFERENCE_CHOICES) each reference column of `columns` may name, by
   * title: one list call per referenced resource (a link's two ends share one), plus the names
   * those titles need.
   */
  async function choicesFor(signed: Signed, columns: readonly UiColumn[]) {
    const choices = new Map<string, ReferenceChoices>();
    const targets = [
      ...new Set(columns.flatMap((column) => (column.references ? [column.references] : []))),
    ];
    await Promise.all(
      targets.map(async (name) => {
        const target = uiResource(name);
        if (!target || !mayRead(target, signed.user.role)) return;
        const answer = answered(
          await signed.api<PagedRows>('GET', `/${target.name}?limit=${REFERENCE_CHOICES}`),
        );
        const rows = answer.body?.data ?? [];
        const names = await titleNames(signed.api, target, rows);
        const offered: ReferenceChoices = Object.assign(
          rows.map((row) => ({ id: String(row.id), name: titleOf(target, row, names) })),
          { more: (answer.body?.meta?.total_count ?? rows.length) > rows.length },
        );
        for (const column of columns)
          if (column.references === name) choices.set(column.name, offered);
      }),
    );
    return choices;
  }

  /**
   * A reference typed by its record's title (`sw-01`, `sw-01 · xe-0/0/0`, as the forms show
   * it) as that record's id; undefined when no one record has that title. Each part of the
   * title is looked up by its field (a reference's part by its own title): the text as typed
   * first (a title may have spaces around it), then without the spaces around it, then in any
   * letter case, where only one record matches.
   */
  async function idOfTitle(
    signed: Signed,
    target: UiResource,
    typed: string,
    depth = 2,
  ): Promise<string | undefined> {
    const text = typed.replace(/[\u2068\u2069]/g, '');
    const trimmed = text.trim();
    if (PLAIN_UUID.test(trimmed)) return trimmed.toLowerCase();
    const fields = [
      ...(target.titleQualifier ? [target.titleQualifier] : []),
      ...target.titleFields,
    ];
    if (trimmed === '' || depth === 0 || fields.length === 0 || !mayRead(target, signed.user.role))
      return undefined;
    const attempts: Array<[string, boolean]> = [
      ...(text !== trimmed ? [[text, false] as [string, boolean]] : []),
      [trimmed, false],
      [trimmed, true],
    ];
    for (const [candidate, anyCase] of attempts) {
      const id = await idOfExactTitle(signed, target, fields, candidate, anyCase, depth);
      if (id !== undefined) return id;
    }
    return undefined;
  }

  /** The one record whose title is `text`, part by part (idOfTitle); in any case if asked. */
  async function idOfExactTitle(
    signed: Signed,
    target: UiResource,
    fields: readonly string[],
    text: string,
    anyCase: boolean,
    depth: number,
  ): Promise<string | undefined> {
    const parts = fields.length === 1 ? [text] : text.split(' · ');
    if (parts.length !== fields.length) return undefined;
    const query = new URLSearchParams({ limit: '2', fields: 'id' });
    for (const [index, field] of fields.entries()) {
      const column = target.columns.find((candidate) => candidate.name === field);
      const part = parts[index] ?? '';
      const referenced = column?.references ? uiResource(column.references) : undefined;
      if (referenced) {
        const id = await idOfTitle(signed, referenced, part, depth - 1);
        if (id === undefined) return undefined;
        query.set(field, id);
      } else if (column?.filterable) {
        if (anyCase && column.lookups.includes('ie')) query.set(`${field}__ie`, part);
        else query.set(field, part);
      } else return undefined;
    }
    const answer = await signed.api<PagedRows>('GET', `/${target.name}?${query}`);
    if (answer.status === 429) throw apiError(answer);
    const rows = answer.status === 200 ? (answer.body?.data ?? []) : [];
    return rows.length === 1 ? String(rows[0]?.id) : undefined;
  }

  /**
   * A form's references typed by title, as ids (idOfTitle); a title no record has is refused
   * in words beside its field (400), the form kept as typed. A reference left as the edit form
   * showed it (the title of `_base_<field>`, carried as `_shown_<field>`) is kept as it was,
   * without a lookup: whatever its title, an edit of another field never loses it.
   */
  async function resolveReferences(signed: Signed, resource: UiResource, values: Form) {
    const resolved: Form = { ...values };
    const errors: Record<string, string> = {};
    for (const column of editableColumns(resource)) {
      const target = column.references ? uiResource(column.references) : undefined;
      const given = one(values[column.name]);
      const typed = given.trim();
      if (!target || typed === '' || PLAIN_UUID.test(typed)) continue;
      const base = one(values[`_base_${column.name}`]);
      if (PLAIN_UUID.test(base) && given === one(values[`_shown_${column.name}`])) {
        resolved[column.name] = base;
        continue;
      }
      const id = await idOfTitle(signed, target, given);
      if (id === undefined) errors[column.name] = `No ${target.names.singular} is named ${typed}`;
      else resolved[column.name] = id;
    }
    return { resolved, errors };
  }

  /** Whether the user may list the accounts: an account's filter is then chosen by username. */
  const mayListAccounts = (signed: Signed) =>
    (users.readRoles as readonly string[] | undefined)?.includes(signed.user.role) ?? true;

  /**
   * An enumeration's filter (a status): is, is not or is one of, its values in a select of
   * several (none chosen: any), and where the field may be empty, "is empty" as yes or no. A
   * filter its controls cannot show (`status__ic=act`) is kept beside the form (keptFilters).
   */
  function enumerationFilter(column: UiColumn, state: ListState): Html {
    const current = enumerationFilterOf(state, column);
    const choices = column.choices ?? [];
    const words: Record<string, string> = { exact: 'is', n: 'is not', in: 'is one of' };
    const id = `filter-${column.name}`;
    return html`<div class="field filter enumeration"><label for="${id}">${column.label}</label>
            <select name="${column.name}__op" aria-label="${column.label}: how to match">
              ${ENUMERATION_LOOKUPS.filter((lookup) => lookup === 'exact' || column.lookups.includes(lookup)).map((lookup) => html`<option value="${lookup}"${lookup === current.lookup ? ' selected' : ''}>${words[lookup] ?? lookup}</option>`)}
            </select>
            <select id="${id}" name="${column.name}" multiple size="${String(Math.min(choices.length, 5))}" aria-describedby="${id}-hint">
              ${choices.map((choice) => html`<option value="${choice}"${current.values.includes(choice) ? ' selected' : ''}>${choice}</option>`)}</select>
            <p class="hint" id="${id}-hint">None chosen: any; several (Ctrl, ⌘ or Shift): is one of them; “is not” takes one.</p>
            ${
              mayBeEmpty(column)
                ? html`<label for="${id}-empty">${column.label} is empty</label>
            <select id="${id}-empty" name="${column.name}__isnull">
              ${[
                ['', 'either'],
                ['true', 'yes'],
                ['false', 'no'],
              ].map(
                ([value, label]) =>
                  html`<option value="${value}"${value === current.empty ? ' selected' : ''}>${label}</option>`,
              )}</select>`
                : ''
            }</div>`;
  }

  /** The first 100 accounts (REFERENCE_CHOICES) by username, and whether there are more. */
  async function accountChoices(signed: Signed): Promise<ReferenceChoices | undefined> {
    if (!mayListAccounts(signed)) return undefined;
    const query = new URLSearchParams({
      limit: String(REFERENCE_CHOICES),
      sortby: 'username:asc',
      fields: 'id,username',
    });
    const answer = answered(await signed.api<PagedRows>('GET', `/users?${query}`));
    const rows = answer.body?.data ?? [];
    return Object.assign(
      rows.map((row) => ({ id: String(row.id), name: String(row.username) })),
      { more: (answer.body?.meta?.total_count ?? rows.length) > rows.length },
    );
  }

  /** An account's id from its username, in any letter case (as usernames are unique). */
  async function idOfUsername(signed: Signed, typed: string): Promise<string | undefined> {
    const text = typed.trim();
    if (PLAIN_UUID.test(text)) return text.toLowerCase();
    if (text === '' || !mayListAccounts(signed)) return undefined;
    const query = new URLSearchParams({ username__ie: text, limit: '2', fields: 'id' });
    const answer = await signed.api<PagedRows>('GET', `/users?${query}`);
    if (answer.status === 429) throw apiError(answer);
    // A text the API refuses as a filter (markup, control characters) names no account either.
    const rows = answer.status === 200 ? (answer.body?.data ?? []) : [];
    return rows.length === 1 ? String(rows[0]?.id) : undefined;
  }

  /**
   * How a filter on `column` names a record, when it can: a reference by its record's title
   * (idOfTitle), an account by its username; undefined for any other column, or a reference
   * to records the user may not read (its filter then takes ids only, as the API does).
   */
  function namingOf(
    signed: Signed,
    column: UiColumn,
  ): { noun: string; idOf: (typed: string) => Promise<string | undefined> } | undefined {
    const target = column.references ? uiResource(column.references) : undefined;
    if (target && mayRead(target, signed.user.role))
      return { noun: target.names.singular, idOf: (typed) => idOfTitle(signed, target, typed) };
    if (column.account && mayListAccounts(signed))
      return { noun: 'account', idOf: (typed) => idOfUsername(signed, typed) };
    return undefined;
  }

  /**
   * The lookups a record is named in: is, is not, is one of (names separated by commas, a name
   * holding one in double quotes: namesInList).
   */
  const NAMING_LOOKUPS = new Set(['exact', 'n', 'in']);
  /** Characters of a name no record has that the page repeats (the box keeps it whole). */
  const UNKNOWN_NAME_CHARS = 80;

  /**
   * A list's filters with the records they name by name (what a typed box sends, what a person
   * writes into an address: `location_id=dc-east`, `user_id=j.doe`) as the ids the API
   * filters by; an id is kept as it is. Each name no record has is a sentence of `unknown`
   * (its text kept in the filters, so the form shows it to be corrected).
   *
   * The lookups are the API's own calls, which the rate limit does not count (the page was), so
   * an address must not be able to multiply them: a parameter given twice is passed on as it is
   * (the API refuses it and the page says why), a name is looked up once however often it is
   * given, and a page looks up at most IN_MAX_VALUES names in all; past that, nothing is looked
   * up and the page says so (400).
   */
  async function filtersByName(
    signed: Signed,
    resource: UiResource,
    state: ListState,
  ): Promise<{ state: ListState; unknown: string[] }> {
    const filters = new URLSearchParams();
    const unknown: string[] = [];
    const given = new Map<string, number>();
    for (const [parameter] of state.filters) given.set(parameter, (given.get(parameter) ?? 0) + 1);
    const plan = [...state.filters].map(([parameter, value]) => {
      const [field = '', lookup = 'exact'] = parameter.split('__');
      const column = resource.columns.find(
        (candidate) => candidate.name === field && candidate.filterable,
      );
      const naming =
        column && NAMING_LOOKUPS.has(lookup) && given.get(parameter) === 1
          ? namingOf(signed, column)
          : undefined;
      const parts =
        lookup !== 'in' ? [value.trim()] : naming ? namesInList(value) : value.split(',');
      // A list longer than the API takes is its to refuse, not a lookup per name.
      const named = column && naming && parts.length <= IN_MAX_VALUES;
      return { parameter, value, column, naming: named ? naming : undefined, parts };
    });
    const keyOf = (noun: string, part: string) => `${noun}\u0000${part}`;
    const wanted = new Set(
      plan.flatMap(({ naming, parts }) =>
        naming
          ? parts
              .filter((part) => part !== '' && !PLAIN_UUID.test(part))
              .map((part) => keyOf(naming.noun, part))
          : [],
      ),
    );
    if (wanted.size > IN_MAX_VALUES)
      return {
        state,
        unknown: [
          `The filters name more than ${IN_MAX_VALUES} records by name; name fewer, or choose them by id.`,
        ],
      };
    const found = new Map<string, string | undefined>();
    for (const { parameter, value, column, naming, parts } of plan) {
      if (!column || !naming) {
        filters.append(parameter, value);
        continue;
      }
      const ids: string[] = [];
      for (const part of parts) {
        const key = keyOf(naming.noun, part);
        if (part !== '' && !found.has(key)) found.set(key, await naming.idOf(part));
        const id = part === '' ? part : found.get(key);
        if (id === undefined)
          unknown.push(
            `${column.label}: no ${naming.noun} is named “${isolate(visibleControls(cutToStart(part, UNKNOWN_NAME_CHARS)))}”.`,
          );
        ids.push(id ?? part);
      }
      filters.append(parameter, ids.join(','));
    }
    return { state: { ...state, filters }, unknown };
  }

  /**
   * The names of the records a list's filters name by id (their titles, an account's
   * username), keyed `column/id`: a typed box shows a filter by its records' names.
   */
  async function namesInFilters(
    signed: Signed,
    resource: UiResource,
    state: ListState,
  ): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    // Each field's ids, read once per page (an "is one of" value is a line of CSV to parse).
    const idsByField = new Map<string, string[]>();
    for (const [parameter, value] of state.filters) {
      const field = parameter.split('__')[0] ?? '';
      const ids = (parameter.endsWith('__in') ? namesInList(value) : value.split(','))
        .map((part) => part.trim().toLowerCase())
        .filter((part) => PLAIN_UUID.test(part));
      idsByField.set(field, [...(idsByField.get(field) ?? []), ...ids]);
    }
    const idsOf = (column: UiColumn) => idsByField.get(column.name) ?? [];
    const references = resource.columns.filter(
      (column) => column.filterable && column.references && idsOf(column).length > 0,
    );
    const rows = references.flatMap((column) => idsOf(column).map((id) => ({ [column.name]: id })));
    const titles = await referenceNames(signed.api, rows, references);
    for (const column of references)
      for (const id of idsOf(column)) {
        const title = titles.get(referenceKey(column.references ?? '', id));
        if (title !== undefined) names.set(`${column.name}/${id}`, title);
      }
    const account = resource.columns.find((column) => column.filterable && column.account);
    const accountIds =
      account && mayListAccounts(signed) ? idsOf(account).slice(0, IN_MAX_VALUES) : [];
    if (account && accountIds.length > 0) {
      const query = new URLSearchParams({
        id__in: [...new Set(accountIds)].join(','),
        limit: String(IN_MAX_VALUES),
        fields: 'id,username',
      });
      const answer = answered(await signed.api<PagedRows>('GET', `/users?${query}`));
      for (const row of answer.body?.data ?? [])
        names.set(`${account.name}/${String(row.id).toLowerCase()}`, String(row.username));
    }
    return names;
  }

  /**
   * A filter's value as its typed box shows it: each record's id as the record's name, the names
   * of "is one of" as namesInList reads them back.
   */
  const shownFilter = (
    column: UiColumn,
    filter: { value: string; lookup: string },
    names: Map<string, string>,
  ) => {
    const nameOf = (part: string) => names.get(`${column.name}/${part.trim().toLowerCase()}`);
    if (filter.lookup !== 'in') return nameOf(filter.value) ?? filter.value;
    return listOfNames(namesInList(filter.value).map((part) => nameOf(part) ?? part));
  };

  /** A reference typed by a title no record has, as the API's refusal of its field (400). */
  const unnamed = (errors: Record<string, string>): Promise<ApiAnswer> | undefined => {
    const [field, message] = Object.entries(errors)[0] ?? [];
    return field === undefined
      ? undefined
      : Promise.resolve({
          status: 400,
          body: { message: `${field}: ${message}` },
          text: '',
          headers: {},
        });
  };

  interface FormState {
    values: Record<string, string>;
    /** The values as read when the form was opened (edits: what "changed" means). */
    base?: Record<string, string>;
    etag?: string;
    errors: Record<string, string>;
    formError?: string | Html;
    /** Shown again after a 429: nothing more is read from the API. */
    rateLimited?: boolean;
  }

  async function editPage(
    signed: Signed,
    resource: UiResource,
    id: string | undefined,
    state: FormState,
  ) {
    // Rate limited, the form is shown again without reading anything more (each read would be
    // refused too): references as their ids, the breadcrumb by the start of its id.
    const offline = state.rateLimited === true;
    const choices = offline
      ? new Map<string, ReferenceChoices>()
      : await referenceChoices(signed, resource);
    // The records the form's references name now, by title (one may be past the choices).
    const current = offline
      ? new Map<string, string>()
      : await referenceNames(
          signed.api,
          [state.values, ...(state.base ? [state.base] : [])],
          editableColumns(resource).filter((column) => column.references),
        );
    const read = id ? { ...(state.base ?? state.values), id } : undefined;
    const readNames = read && !offline ? await titleNames(signed.api, resource, [read]) : new Map();
    const action = id ? `/ui/${resource.name}/${id}/edit` : `/ui/${resource.name}/new`;
    const title = id ? `Edit ${resource.names.singular}` : `Add ${resource.names.singular}`;
    return page(
      signed.context,
      title,
      html`
      ${state.formError instanceof Html ? html`<div class="alert" id="form-error">${state.formError}</div>` : ''}
      <form method="post" action="${action}" class="record-form" novalidate>${csrfField(signed.context)}
        ${state.etag ? html`<input type="hidden" name="_etag" value="${state.etag}">` : ''}
        ${Object.entries(state.base ?? {})
          .filter(([name]) => !secretNames(resource).has(name))
          .map(
            ([name, value]) => html`<input type="hidden" name="_base_${name}" value="${value}">`,
          )}
        ${editableColumns(resource).flatMap((column) => {
          // The title a reference was shown by: left as it is, the reference is kept.
          const base = column.references ? state.base?.[column.name] : undefined;
          const shown = base ? current.get(referenceKey(column.references ?? '', base)) : undefined;
          return shown === undefined
            ? []
            : [html`<input type="hidden" name="_shown_${column.name}" value="${shown}">`];
        })}
        ${editableColumns(resource).map((column) =>
          fieldControl(column, state.values[column.name] ?? '', state.errors[column.name], {
            ...(choices.has(column.name) ? { referenceChoices: choices.get(column.name) } : {}),
            ...(offline && column.references ? { referenceChoices: [] } : {}),
            ...(column.references && state.values[column.name]
              ? {
                  referenceName: current.get(
                    referenceKey(column.references, state.values[column.name] ?? ''),
                  ),
                }
              : {}),
            editing: id !== undefined,
          }),
        )}
        <div class="actions"><button type="submit">Save</button> <a href="${id ? `/ui/${resource.name}/${id}` : `/ui/${resource.name}`}">Cancel</a></div>
      </form>`,
      [
        { label: resource.label, href: `/ui/${resource.name}` },
        // The record as it was read (the form's base), not as the user is retyping it.
        ...(id
          ? [
              {
                label: titleOf(resource, read ?? {}, readNames),
                href: `/ui/${resource.name}/${id}`,
              },
            ]
          : []),
        { label: id ? 'Edit' : 'Add' },
      ],
      [
        ...(typeof state.formError === 'string'
          ? [{ text: state.formError, id: 'form-error' }]
          : []),
        // A refusal explained at length below (what changed meanwhile) is pointed to.
        ...(state.formError instanceof Html
          ? [{ text: 'Nothing was saved: see why below.', field: 'form-error' }]
          : []),
        ...editableColumns(resource)
          .filter((column) => state.errors[column.name])
          .map((column) => ({
            text: `${column.label}: ${state.errors[column.name]}`,
            field: `field-${column.name}`,
          })),
      ],
    );
  }

  const secretNames = (resource: UiResource) =>
    new Set(resource.columns.filter((column) => column.secret).map((column) => column.name));

  const recordValues = (resource: UiResource, row: Row) =>
    Object.fromEntries(
      editableColumns(resource).map((column) => [column.name, formValue(column, row[column.name])]),
    );

  /** Whether two form values say the same: a list's in any order (its boxes post in theirs). */
  const sameFormValue = (column: UiColumn, a: string | undefined, b: string | undefined) => {
    // Lines compare by their text: a browser sends CR LF for each line break it shows.
    if (column.multiline) return lineFeeds(a ?? '') === lineFeeds(b ?? '');
    if (column.kind !== 'list') return a === b;
    const members = (value: string | undefined) =>
      (value ?? '').split(',').filter(Boolean).sort().join(',');
    return members(a) === members(b);
  };

  const formValues = (resource: UiResource, body: Form) =>
    Object.fromEntries(
      editableColumns(resource).map((column) => [
        column.name,
        column.kind === 'list' ? many(body[column.name]).join(',') : one(body[column.name]),
      ]),
    );

  /** The API's refusal as errors beside the fields it names, or for the whole form. */
  function refusal(
    resource: UiResource,
    answer: ApiAnswer,
  ): Pick<FormState, 'errors' | 'formError' | 'rateLimited'> {
    const message = errorMessage(answer);
    if (answer.status === 429) return { errors: {}, formError: message, rateLimited: true };
    const field = fieldOfMessage(resource, message);
    const column = resource.columns.find((candidate) => candidate.name === field);
    return field
      ? { errors: { [field]: fieldMessage(message, field, column) } }
      : { errors: {}, formError: plainMessage(resource, message) };
  }

  app.get(
    '/:resource/new',
    routeOptions,
    page$(async (signed, request, reply) => {
      const resource = writableResource(signed, request);
      // A field may be filled in from the address (`?device_id=…`, the "Add interface" link of
      // a device's page); only a field of the form, and only as its text.
      const asked = request.query as Query;
      const defaults = Object.fromEntries(
        editableColumns(resource).map((column) => [
          column.name,
          !column.secret && column.kind !== 'list' && typeof asked[column.name] === 'string'
            ? String(asked[column.name])
            : formValue(column, resource.definition.columns[column.name]?.default),
        ]),
      );
      return send(
        reply,
        await editPage(signed, resource, undefined, { values: defaults, errors: {} }),
      );
    }),
  );

  submit('/:resource/new', {
    async read(signed, request) {
      const resource = writableResource(signed, request);
      const body = request.body as Form;
      const { resolved, errors } = await resolveReferences(signed, resource, body);
      const payload: Row = {};
      for (const column of editableColumns(resource)) {
        const value = parseFormValue(column, resolved[column.name] ?? '');
        // A set with no box ticked is sent as empty: the API refuses it where one is needed (a
        // webhook's events), rather than its default (all) being saved instead.
        if (value !== null) payload[column.name] = value;
      }
      return { resource, body, payload, errors };
    },
    call: (signed, { resource, payload, errors }) =>
      unnamed(errors) ?? signed.api<Row>('POST', `/${resource.name}`, { payload }),
    accepted: ({ resource }, answer) => ({
      redirect: `/ui/${resource.name}/${String((answer?.body as Row | undefined)?.id)}`,
    }),
    refused: (signed, { resource, body }, answer) =>
      editPage(signed, resource, undefined, {
        values: formValues(resource, body),
        ...refusal(resource, answer),
      }),
  });

  const idOf = (request: FastifyRequest) => {
    const { resource, id } = request.params as { resource: string; id: string };
    if (!PLAIN_UUID.test(id)) throw new ApiError(404, 'No such page');
    return { name: resource, id };
  };

  app.get(
    '/:resource/:id/edit',
    routeOptions,
    page$(async (signed, request, reply) => {
      const { id } = idOf(request);
      const resource = writableResource(signed, request);
      const answer = await signed.api<Row>('GET', `/${resource.name}/${id}`);
      answered(answer);
      const values = recordValues(resource, answer.body);
      return send(
        reply,
        await editPage(signed, resource, id, {
          values,
          base: values,
          etag: String(answer.headers.etag ?? ''),
          errors: {},
        }),
      );
    }),
  );

  submit('/:resource/:id/edit', {
    async read(signed, request) {
      const { id } = idOf(request);
      const resource = writableResource(signed, request);
      const body = request.body as Form;
      // The values as typed (shown again on a refusal), and with references as ids (sent).
      const values = formValues(resource, body);
      const { resolved, errors } = await resolveReferences(signed, resource, body);
      const sent = formValues(resource, resolved);
      const base = Object.fromEntries(
        editableColumns(resource).map((column) => [column.name, one(body[`_base_${column.name}`])]),
      );
      // Only what the user changed is sent (PATCH), guarded by the ETag of the version they read.
      const payload: Row = {};
      for (const column of editableColumns(resource)) {
        if (
          column.secret
            ? sent[column.name] === ''
            : sameFormValue(column, sent[column.name], base[column.name])
        )
          continue;
        payload[column.name] = parseFormValue(
          column,
          column.kind === 'list' ? many(body[column.name]) : (sent[column.name] ?? ''),
        );
      }
      return { resource, id, values, base, payload, errors, etag: one(body._etag) };
    },
    call: (signed, { resource, id, payload, errors, etag }) =>
      unnamed(errors) ??
      (Object.keys(payload).length === 0
        ? Promise.resolve(undefined)
        : signed.api<Row>('PATCH', `/${resource.name}/${id}`, {
            payload,
            headers: etag ? { 'if-match': etag } : {},
          })),
    accepted: ({ resource, id }) => ({ redirect: `/ui/${resource.name}/${id}` }),
    async refused(signed, { resource, id, values, base, etag }, answer) {
      if (answer.status === 412) {
        // Someone saved first: say what they changed, keep what this user typed, and let them
        // overwrite knowingly (the form now carries the new version's ETag) or reload.
        const current = await signed.api<Row>('GET', `/${resource.name}/${id}`);
        answered(current);
        const now = recordValues(resource, current.body);
        const changed = editableColumns(resource).filter(
          (column) => !sameFormValue(column, now[column.name], base[column.name]),
        );
        const formError = html`<p><strong>Someone else changed this ${resource.names.singular} while you were editing it.</strong> Nothing was saved.</p>
        <table class="diff"><caption>Changed meanwhile</caption><thead><tr><th scope="col">Field</th><th scope="col">When you opened the form</th><th scope="col">Now</th><th scope="col">Your value</th></tr></thead>
        <tbody>${changed.map((column) => html`<tr><th scope="row">${column.label}</th><td>${shownValue(base[column.name], 'del')}</td><td>${shownValue(now[column.name], 'ins')}</td><td>${sameFormValue(column, values[column.name], base[column.name]) ? html`<span class="muted">not changed by you</span>` : shownValue(values[column.name])}</td></tr>`)}</tbody></table>
        <p>The form now holds the current version with your own changes on top. Press Save to
        overwrite with your values, or <a href="/ui/${resource.name}/${id}/edit">reload the current version</a> and lose your changes.</p>`;
        // The user's own edits stay; every field they did not touch takes the current value.
        const mine = Object.fromEntries(
          editableColumns(resource)
            .filter((column) => !sameFormValue(column, values[column.name], base[column.name]))
            .map((column) => [column.name, values[column.name] ?? '']),
        );
        return editPage(signed, resource, id, {
          values: { ...now, ...mine },
          base: now,
          etag: String(current.headers.etag ?? ''),
          errors: {},
          formError,
        });
      }
      return editPage(signed, resource, id, { values, base, etag, ...refusal(resource, answer) });
    },
  });

  /**
   * The delete confirmation: the record as read (its ETag and its values, so a refusal can say
   * what changed since), and, after a refusal, what changed.
   */
  async function deletePage(
    signed: Signed,
    resource: UiResource,
    id: string,
    current: ApiAnswer<Row>,
    notice?: Html,
  ) {
    const title = titleOf(
      resource,
      current.body,
      await titleNames(signed.api, resource, [current.body]),
    );
    const values = recordValues(resource, current.body);
    return page(
      signed.context,
      `Delete ${isolate(title)}?`,
      html`${notice ?? ''}
      <form method="post" action="/ui/${resource.name}/${id}/delete">${csrfField(signed.context)}
        <input type="hidden" name="_etag" value="${String(current.headers.etag ?? '')}">
        ${Object.entries(values)
          .filter(([name]) => !secretNames(resource).has(name))
          .map(
            ([name, value]) => html`<input type="hidden" name="_base_${name}" value="${value}">`,
          )}
        <p>This deletes the ${resource.names.singular} ${title}.</p>
        <button type="submit" class="danger">Delete</button> <a href="/ui/${resource.name}/${id}">Cancel</a></form>`,
      [
        { label: resource.label, href: `/ui/${resource.name}` },
        { label: title, href: `/ui/${resource.name}/${id}` },
        { label: 'Delete' },
      ],
    );
  }

  app.get(
    '/:resource/:id/delete',
    routeOptions,
    page$(async (signed, request, reply) => {
      const { id } = idOf(request);
      const resource = writableResource(signed, request);
      const answer = await signed.api<Row>('GET', `/${resource.name}/${id}`);
      if (answer.status === 404) return send(reply, missingRecord(signed, resource, id), 404);
      return send(reply, await deletePage(signed, resource, id, answered(answer)));
    }),
  );

  submit('/:resource/:id/delete', {
    read: (signed, request) => {
      const resource = writableResource(signed, request);
      const body = request.body as Form;
      const base = Object.fromEntries(
        editableColumns(resource).map((column) => [column.name, one(body[`_base_${column.name}`])]),
      );
      return { id: idOf(request).id, resource, base, etag: one(body._etag) };
    },
    call: (signed, { resource, id, etag }) =>
      signed.api('DELETE', `/${resource.name}/${id}`, {
        headers: etag ? { 'if-match': etag } : {},
      }),
    accepted: ({ resource }) => ({ redirect: `/ui/${resource.name}` }),
    async refused(signed, { resource, id, base }, answer) {
      const current = await signed.api<Row>('GET', `/${resource.name}/${id}`);
      // Deleted meanwhile by someone else: there is nothing left to delete.
      if (current.status === 404) return missingRecord(signed, resource, id);
      answered(current);
      if (answer.status !== 412) {
        return deletePage(
          signed,
          resource,
          id,
          current,
          html`<p class="alert" role="alert">${errorMessage(answer)}</p>`,
        );
      }
      // Someone saved first: say what they changed; the form now carries the version shown.
      const now = recordValues(resource, current.body);
      const changed = editableColumns(resource).filter(
        (column) => !column.secret && !sameFormValue(column, now[column.name], base[column.name]),
      );
      return deletePage(
        signed,
        resource,
        id,
        current,
        html`<div class="alert" role="alert" id="form-error"><p><strong>Someone else changed this ${resource.names.singular} after you opened this page.</strong> Nothing was deleted.</p>
        ${
          changed.length > 0
            ? html`<table class="diff"><caption>Changed meanwhile</caption><thead><tr><th scope="col">Field</th><th scope="col">When you opened the page</th><th scope="col">Now</th></tr></thead>
        <tbody>${changed.map((column) => html`<tr><th scope="row">${column.label}</th><td>${shownValue(base[column.name], 'del')}</td><td>${shownValue(now[column.name], 'ins')}</td></tr>`)}</tbody></table>`
            : ''
        }
        <p>Press Delete to delete it as it is now, or <a href="/ui/${resource.name}/${id}">go back to the ${resource.names.singular}</a>.</p></div>`,
      );
    },
  });

  // ---- Object page ----------------------------------------------------------------------------

  app.get(
    '/:resource/:id',
    routeOptions,
    page$(async (signed, request, reply) => {
      const { name, id } = idOf(request);
      const resource = resourceOf(signed, name);
      if (!resource.recordPages) throw new ApiError(404, 'No such page');
      const answer = await signed.api<Row>('GET', `/${resource.name}/${id}`);
      if (answer.status === 404) return send(reply, missingRecord(signed, resource, id), 404);
      answered(answer);
      const row = answer.body;
      const shown = shownColumns(resource);
      const names = await referenceNames(
        signed.api,
        [row],
        [...shown, ...titleReferences(resource)],
      );
      const writable = mayWrite(resource, signed.user.role);
      const sections: Html[] = [];
      sections.push(html`<section aria-labelledby="fields-heading"><h2 id="fields-heading">${resource.singular}</h2>
      <table class="fields"><tbody>${shown.map((column) => html`<tr><th scope="row">${column.label}</th><td>${valueCell(column, row[column.name], names)}</td></tr>`)}
      <tr><th scope="row">ID</th><td><code>${String(row.id)}</code></td></tr></tbody></table></section>`);
      // Related objects: every resource with a column pointing here, from the definitions.
      for (const relation of resource.referencedBy) {
        const related = uiResource(relation.resource);
        if (!related || !mayRead(related, signed.user.role)) continue;
        const list = answered(
          await signed.api<{ data?: Row[]; meta?: { total_count?: number } }>(
            'GET',
            `/${related.name}?${new URLSearchParams({ [relation.column]: id, limit: '10' })}`,
          ),
        );
        const rows = list.body.data ?? [];
        const columns = related.columns
          .filter(
            (column) =>
              related.defaultColumns.includes(column.name) && column.name !== relation.column,
          )
          .slice(0, 5);
        const relatedNames = await referenceNames(signed.api, rows, columns);
        const heading = `${related.label}${resource.referencedBy.filter((r) => r.resource === relation.resource).length > 1 ? ` (${relation.column.replace(/_id$/, '').replace(/_/g, ' ')})` : ''}`;
        sections.push(html`<section class="related"><h2>${heading} <span class="count">${String(list.body.meta?.total_count ?? rows.length)}</span></h2>
        ${
          rows.length === 0
            ? html`<p class="muted">None.</p>`
            : html`<table class="list"><thead><tr>${columns.map((column) => html`<th scope="col">${column.label}</th>`)}</tr></thead>
        <tbody>${rows.map((child) => html`<tr>${columns.map((column, index) => (index === 0 && related.recordPages ? html`<td><a href="/ui/${related.name}/${String(child.id)}">${rowLinkText(related, column, child, relatedNames)}</a></td>` : html`<td>${listCell(column, child[column.name], relatedNames)}</td>`))}</tr>`)}</tbody></table>`
        }
        <p><a href="/ui/${related.name}?${String(new URLSearchParams({ [relation.column]: id }))}">All ${related.names.plural} of this ${resource.names.singular}</a>${
          mayWrite(related, signed.user.role) && offers(related.definition, 'create')
            ? html` · <a href="/ui/${related.name}/new?${String(new URLSearchParams({ [relation.column]: id }))}">Add ${related.names.singular}</a>`
            : ''
        }</p></section>`);
      }
      if (resource.name === 'devices' || resource.name === 'locations')
        sections.push(await topology(signed, resource.name, id, row));
      if (resource.name === 'devices') sections.push(await metricCharts(signed, id));
      if (resource.name === 'webhooks') sections.push(await deliveries(signed, id));
      // The change history, where the API keeps one (not for events: telemetry, not audited).
      if (signed.user.role === 'admin' && offers(resource.definition, 'history'))
        sections.push(await history(signed, resource, id, names));
      const actions = writable
        ? html`<div class="page-actions"><a class="button" href="/ui/${resource.name}/${id}/edit">Edit</a> <a class="button danger" href="/ui/${resource.name}/${id}/delete">Delete</a></div>`
        : '';
      return send(
        reply,
        page(signed.context, titleOf(resource, row, names), html`${actions}${sections}`, [
          { label: resource.label, href: `/ui/${resource.name}` },
          { label: titleOf(resource, row, names) },
        ]),
      );
    }),
  );

  /**
   * The audit trail's entries about one record, for a user who may read the trail and a
   * resource whose writes it records: a record's whole history, still there once it is deleted.
   */
  function auditTrailOf(signed: Signed, resource: UiResource, id: string): string | undefined {
    const trail = uiResource(auditLogs.name);
    if (!trail || !mayRead(trail, signed.user.role) || resource.definition.audited === false)
      return undefined;
    return `/ui/${trail.name}?${new URLSearchParams({ resource_id: id.toLowerCase() })}`;
  }

  /** A record that is not there (never was, or deleted): said so, with its history if any. */
  function missingRecord(signed: Signed, resource: UiResource, id: string): string {
    const trail = auditTrailOf(signed, resource, id);
    return page(
      signed.context,
      `No such ${resource.names.singular}`,
      html`<p class="alert" role="alert">There is no ${resource.names.singular} with this address: it was deleted, or never existed.</p>
      ${trail ? html`<p><a href="${trail}">Its entries in the audit log</a> show what happened to it, if anything.</p>` : ''}
      <p><a href="/ui/${resource.name}">All ${resource.names.plural}</a></p>`,
      [{ label: resource.label, href: `/ui/${resource.name}` }, { label: 'Not found' }],
    );
  }

  async function history(
    signed: Signed,
    resource: UiResource,
    id: string,
    pageNames: ReferenceNames,
  ): Promise<Html> {
    const answer = answered(
      await signed.api<{ data?: Row[]; meta?: { total_count?: number } }>(
        'GET',
        `/${resource.name}/${id}/history?limit=${HISTORY_SHOWN}`,
      ),
    );
    const entries = answer.body?.data ?? [];
    const total = answer.body?.meta?.total_count ?? entries.length;
    const columnOf = (field: string) => resource.columns.find((column) => column.name === field);
    const labelOf = (field: string) => columnOf(field)?.label ?? field;
    const changesOf = (entry: Row) => (entry.changes ?? {}) as Record<string, unknown>;
    const beforeAndAfter = (change: unknown) =>
      Array.isArray(change) && change.length === 2 ? change : [undefined, change];
    // Referenced records by name, as on the object page: every value the changes name, those
    // the page does not name already read in one call per referenced resource.
    const names = await referenceNames(
      signed.api,
      entries.flatMap((entry) =>
        Object.entries(changesOf(entry)).flatMap(([field, change]) =>
          beforeAndAfter(change).map((value) => ({ [field]: value })),
        ),
      ),
      resource.columns.filter((column) => column.references),
      pageNames,
    );
    const shownChange = (field: string, value: unknown, mark: 'del' | 'ins') => {
      const column = columnOf(field);
      if (!column?.references || typeof value !== 'string' || value === '')
        return shownValue(textOf(value), mark);
      const link = valueCell(column, value, names);
      return mark === 'del' ? html`<del>${link}</del>` : html`<ins>${link}</ins>`;
    };
    const trail = auditTrailOf(signed, resource, id);
    // The latest changes only: said, with the way to the rest (the oldest, its creation, last).
    const shownCount =
      total > entries.length
        ? html`<p>The latest ${String(entries.length)} of ${String(total)} changes, newest first${trail ? html`: <a href="${trail}">all ${String(total)} in the audit log</a>` : ''}.</p>`
        : trail
          ? html`<p><a href="${trail}">All its entries in the audit log</a></p>`
          : '';
    return html`<section class="history" aria-labelledby="history-heading"><h2 id="history-heading">Change history</h2>
      ${shownCount}
      ${
        entries.length === 0
          ? html`<p class="muted">No changes recorded.</p>`
          : html`<ol class="changes">${entries.map((entry) => {
              const pairs = Object.entries(changesOf(entry)).filter(
                ([field]) => !['updated_at', 'created_at', 'id'].includes(field),
              );
              return html`<li><p><strong>${String(entry.action)}</strong> by ${String(entry.username ?? 'system')} at <time datetime="${String(entry.created_at)}">${String(entry.created_at)}</time>
          <span class="muted">request <code>${String(entry.request_id ?? '')}</code></span></p>
          ${
            pairs.length > 0
              ? html`<table class="diff"><thead><tr><th scope="col">Field</th><th scope="col">Before</th><th scope="col">After</th></tr></thead><tbody>
          ${pairs.map(([field, change]) => {
            const [before, after] = beforeAndAfter(change);
            return html`<tr><th scope="row">${labelOf(field)}</th><td>${shownChange(field, before, 'del')}</td><td>${shownChange(field, after, 'ins')}</td></tr>`;
          })}</tbody></table>`
              : ''
          }</li>`;
            })}</ol>`
      }</section>`;
  }

  /**
   * The links with an end on one of `deviceIds`, each with its ends' interface names and
   * devices: one query, however many interfaces the devices have (read through the API, the
   * links of a location's 100 devices with 48 ports each would be about a hundred calls of 100
   * interfaces, against a rate limit of 100 a minute). Read only for a user who may read links
   * and interfaces, as the API would allow.
   */
  async function linksOfDevices(signed: Signed, deviceIds: readonly string[]) {
    const readable = ['links', 'interfaces'].every((name) => {
      const resource = uiResource(name);
      return resource !== undefined && mayRead(resource, signed.user.role);
    });
    const ids = deviceIds.filter((id) => PLAIN_UUID.test(id));
    if (!readable || ids.length === 0) return [];
    const list = sql.join(ids.map((id) => sql`${id}`));
    const { rows } = await sql<{
      id: string;
      status: string | null;
      a_name: string;
      a_device: string;
      b_name: string;
      b_device: string;
    }>`SELECT l.id, l.status, a.name AS a_name, a.device_id AS a_device,
        b.name AS b_name, b.device_id AS b_device
      FROM links l JOIN interfaces a ON a.id = l.a_interface_id
        JOIN interfaces b ON b.id = l.b_interface_id
      WHERE a.device_id IN (${list}) OR b.device_id IN (${list})
      ORDER BY l.id`.execute(options.db);
    return rows.map((row) => ({
      ...row,
      id: String(row.id),
      a_device: String(row.a_device),
      b_device: String(row.b_device),
    }));
  }

  /**
   * Devices as nodes and links as edges: a location's devices (its first 100) and every link with
   * an end on one of them, or a device and its neighbours; a device at a link's far end that is
   * not drawn already is drawn too.
   */
  async function topology(signed: Signed, kind: string, id: string, record: Row): Promise<Html> {
    const devices =
      kind === 'locations'
        ? (answered(
            await signed.api<{ data?: Row[] }>(
              'GET',
              `/devices?${new URLSearchParams({ location_id: id, limit: '100', fields: 'id,hostname' })}`,
            ),
          ).body?.data ?? [])
        : [record];
    const links = await linksOfDevices(
      signed,
      devices.map((device) => String(device.id)),
    );
    const nodes = new Map<string, TopologyNode>(
      devices.map((device) => [
        String(device.id),
        {
          id: String(device.id),
          label: String(device.hostname ?? ''),
          href: `/ui/devices/${String(device.id)}`,
          focus: kind === 'devices',
        },
      ]),
    );
    // The far ends' devices by name: one call per IN_MAX_VALUES of them.
    const far = [...new Set(links.flatMap((link) => [link.a_device, link.b_device]))].filter(
      (deviceId) => !nodes.has(deviceId),
    );
    for (let start = 0; start < far.length; start += IN_MAX_VALUES) {
      const chunk = far.slice(start, start + IN_MAX_VALUES);
      const query = new URLSearchParams({
        id__in: chunk.join(','),
        limit: String(chunk.length),
        fields: 'id,hostname',
      });
      for (const device of answered(await signed.api<{ data?: Row[] }>('GET', `/devices?${query}`))
        .body?.data ?? [])
        nodes.set(String(device.id), {
          id: String(device.id),
          label: String(device.hostname ?? ''),
          href: `/ui/devices/${String(device.id)}`,
        });
    }
    const linkPages = uiResource('links')?.recordPages === true;
    const edges: TopologyEdge[] = links.map((link) => ({
      from: link.a_device,
      to: link.b_device,
      fromPort: link.a_name,
      toPort: link.b_name,
      status: String(link.status ?? ''),
      ...(linkPages ? { href: `/ui/links/${link.id}` } : {}),
    }));
    return html`<section class="topology-section" aria-labelledby="topology-heading"><h2 id="topology-heading">Topology</h2>
      ${topologySvg([...nodes.values()], edges)}
      ${edges.length === 0 ? html`<p class="muted">No links ${kind === 'locations' ? 'between these devices' : 'to other devices'} yet.</p>` : ''}
      <p class="legend">${legendSwatch(true)} link up ${legendSwatch(false)} link down (dashed)</p></section>`;
  }

  async function metricCharts(signed: Signed, id: string): Promise<Html> {
    const from = new Date(Date.now() - 7 * 24 * 3600 * 1000).toISOString();
    const answer = await signed.api<{ data?: Array<Record<string, number | string | null>> }>(
      'GET',
      `/metrics/device/${id}?${new URLSearchParams({ from, limit: String(METRIC_POINTS) })}`,
    );
    // 404 is the API's "no metrics for this device"; any other refusal fails the page.
    const data = answer.status === 404 ? [] : (answered(answer).body?.data ?? []);
    const series = (field: string, name: string, unit: string) => ({
      name,
      unit,
      points: data
        .filter((point) => typeof point[field] === 'number')
        .map((point) => ({ at: Date.parse(String(point.ts)), value: point[field] as number }))
        .sort((a, b) => a.at - b.at),
    });
    const heading = html`<h2 id="metrics-heading">Metrics</h2>`;
    if (data.length === 0) {
      if (answer.status === 404)
        return html`<section class="metrics" aria-labelledby="metrics-heading">${heading}<p class="muted">No metrics reported for this device.</p></section>`;
      // Older ones exist (the API answered 200): say when the latest was.
      const latest = await signed.api<Record<string, unknown>>('GET', `/metrics/device/${id}`);
      const at = latest.status === 200 ? Date.parse(String(latest.body?.ts)) : Number.NaN;
      return html`<section class="metrics" aria-labelledby="metrics-heading">${heading}<p class="muted">No metrics in the last 7 days${Number.isNaN(at) ? '' : ` (the latest is from ${chartTime(at)})`}.</p></section>`;
    }
    const times = data.map((point) => Date.parse(String(point.ts))).filter((t) => !Number.isNaN(t));
    const span = `from ${chartTime(Math.min(...times))} to ${chartTime(Math.max(...times))}`;
    return html`<section class="metrics" aria-labelledby="metrics-heading">${heading}
      <p>${data.length >= METRIC_POINTS ? `The latest ${METRIC_POINTS} measurements of the last 7 days, ${span}.` : `All ${data.length} measurements of the last 7 days, ${span}.`}</p>
      ${[
        lineChartSvg(series('cpu', 'CPU', '%')),
        lineChartSvg(series('memory', 'Memory', '%')),
        lineChartSvg(series('temperature', 'Temperature', '°C')),
      ]}</section>`;
  }

  async function deliveries(signed: Signed, id: string): Promise<Html> {
    const answer = answered(
      await signed.api<{ data?: Row[] }>('GET', `/webhooks/${id}/deliveries?limit=25`),
    );
    const attempts = answer.body?.data ?? [];
    // Each attempt's record by its title (deleted since: the start of its id), as a reference.
    const recordColumns = [...new Set(attempts.map((attempt) => String(attempt.resource)))]
      .map((name) => uiResource(name))
      .filter((target): target is UiResource => !!target && mayRead(target, signed.user.role))
      .map((target) => ({ ...RECORD_COLUMN, name: target.name, references: target.name }));
    const names = await referenceNames(
      signed.api,
      attempts.map((attempt) => ({ [String(attempt.resource)]: attempt.resource_id })),
      recordColumns,
    );
    const recordCell = (attempt: Row) => {
      const column = recordColumns.find((candidate) => candidate.name === attempt.resource);
      return column
        ? valueCell(column, attempt.resource_id, names)
        : html`${String(attempt.resource)} ${String(attempt.resource_id).slice(0, 8)}`;
    };
    return html`<section aria-labelledby="deliveries-heading"><h2 id="deliveries-heading">Delivery attempts</h2>
      ${
        attempts.length === 0
          ? html`<p class="muted">No deliveries yet.</p>`
          : html`<table class="list"><thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Record</th><th scope="col">Attempt</th><th scope="col">Status</th><th scope="col">Error</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>${attempts.map(
        (
          attempt,
        ) => html`<tr><td>${String(attempt.attempted_at)}</td><td>${String(attempt.event)}</td><td>${recordCell(attempt)}</td><td>${String(attempt.attempt)}</td><td>${textOf(attempt.status_code)}</td><td>${textOf(attempt.error)}</td><td>${String(attempt.delivery_state)}</td>
        <td>${signed.user.role === 'admin' ? html`<form method="post" action="/ui/webhooks/${id}/redeliver">${csrfField(signed.context)}<input type="hidden" name="delivery_id" value="${String(attempt.delivery_id)}"><button type="submit">Redeliver</button></form>` : ''}</td></tr>`,
      )}</tbody></table>`
      }</section>`;
  }

  submit('/webhooks/:id/redeliver', {
    read(_signed, request) {
      const id = (request.params as { id: string }).id;
      const deliveryId = one((request.body as Form).delivery_id);
      if (!PLAIN_UUID.test(id) || !PLAIN_UUID.test(deliveryId))
        throw new ApiError(400, 'Invalid delivery');
      return { id, deliveryId };
    },
    call: (signed, { id, deliveryId }) =>
      signed.api('POST', `/webhooks/${id}/deliveries/${deliveryId}/redeliver`),
    accepted: ({ id }) => ({ redirect: `/ui/webhooks/${id}` }),
  });

  registerAdminPages(app, { routeOptions, page$, submit, send });
}

export interface PageKit {
  routeOptions: PageRouteOptions;
  page$: (
    handler: (signed: Signed, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ) => (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  submit: <Input>(path: string, form: Submission<Input>) => unknown;
  send: (reply: FastifyReply, body: string, status?: number) => FastifyReply;
}

/** Users and API tokens: the API's account routes, for admins. */
function registerAdminPages(app: FastifyInstance, { routeOptions, page$, submit, send }: PageKit) {
  const adminOnly = (signed: Signed) => {
    if (signed.user.role !== 'admin') throw new ApiError(403, FORBIDDEN);
  };
  /** The add-a-user form as the admin left it, and the API's refusal beside its field. */
  interface NewUserForm {
    values: { username: string; email: string; role: string };
    errors: Record<string, string>;
  }
  const noNewUser: NewUserForm = {
    values: { username: '', email: '', role: 'viewer' },
    errors: {},
  };
  const newUserField = (
    form: NewUserForm,
    name: string,
    label: string,
    control: (attributes: Html) => Html,
    hint?: string,
  ) => labelledField(`new-${name}`, form.errors[name], label, control, hint);
  /**
   * One field of an admin form: its label, hint and the refusal beside it, the control told
   * which (aria-describedby) and whether it was refused (aria-invalid).
   */
  const labelledField = (
    id: string,
    error: string | undefined,
    label: string,
    control: (attributes: Html) => Html,
    hint?: string,
  ) => {
    const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : '']
      .filter(Boolean)
      .join(' ');
    return html`<div class="field${error ? ' invalid' : ''}"><label for="${id}">${label}</label>${control(
      html`${error ? html` aria-invalid="true"` : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}`,
    )}${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}${error ? html`<p class="error" id="${id}-error">${error}</p>` : ''}</div>`;
  };
  const usersPage = async (
    signed: Signed,
    error?: string,
    status = 200,
    reply?: FastifyReply,
    newUser: NewUserForm = noNewUser,
    pageNumber = 1,
  ) => {
    const answer = answered(
      await signed.api<PagedRows>(
        'GET',
        `/users?limit=${ADMIN_PAGE_SIZE}&page=${pageNumber}&sortby=username:asc`,
      ),
    );
    const users = answer.body?.data ?? [];
    const typed = newUser.values;
    const problems: PageError[] = [
      ...(error ? [{ text: error }] : []),
      ...Object.entries(newUser.errors).map(([name, text]) => ({
        text: `${NEW_USER_LABELS[name] ?? name}: ${text}`,
        field: `new-${name}`,
      })),
    ];
    const body = page(
      signed.context,
      'Users',
      html`
      ${adminTable(
        users,
        'users',
        '/ui/admin/users',
        pageNumber,
        answer.body?.meta,
        () => html`<table class="list"><thead><tr><th scope="col">Username</th><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Active</th><th scope="col">Change</th></tr></thead>
      <tbody>${users.map(
        (
          user,
        ) => html`<tr><td class="text">${String(user.username)}</td><td class="text">${textOf(user.email)}</td><td>${String(user.role)}</td><td>${user.inactive_status ? 'no' : 'yes'}</td>
        <td><form method="post" action="/ui/admin/users/${String(user.id)}" class="inline-form">${csrfField(signed.context)}
          <label class="visually-hidden" for="role-${String(user.id)}">Role of ${String(user.username)}</label>
          <select id="role-${String(user.id)}" name="role">${['admin', 'editor', 'viewer'].map((role) => html`<option${role === user.role ? ' selected' : ''}>${role}</option>`)}</select>
          <label class="inline"><input type="checkbox" name="inactive_status" value="true"${user.inactive_status ? ' checked' : ''}> Deactivated</label>
          <button type="submit">Save</button></form></td></tr>`,
      )}</tbody></table>`,
      )}
      ${numberedPaging('/ui/admin/users', pageNumber, answer.body?.meta)}
      <h2>Add a user</h2>
      <form method="post" action="/ui/admin/users" class="record-form">${csrfField(signed.context)}
        ${newUserField(newUser, 'username', 'Username', (attributes) => html`<input id="new-username" name="username" required value="${typed.username}"${attributes}>`)}
        ${newUserField(newUser, 'email', 'E-mail', (attributes) => html`<input id="new-email" name="email" type="email" required value="${typed.email}"${attributes}>`)}
        ${newUserField(
          newUser,
          'password',
          'Password',
          // Never shown again: a refused form asks for it anew.
          (attributes) =>
            html`<input id="new-password" name="password" type="password" autocomplete="new-password" required minlength="${String(MIN_PASSWORD_LENGTH)}"${attributes}>`,
          `At least ${MIN_PASSWORD_LENGTH} characters.`,
        )}
        ${newUserField(newUser, 'role', 'Role', (attributes) => html`<select id="new-role" name="role"${attributes}>${['viewer', 'editor', 'admin'].map((role) => html`<option${role === typed.role ? ' selected' : ''}>${role}</option>`)}</select>`)}
        <button type="submit">Add user</button></form>`,
      [],
      problems,
    );
    return reply ? send(reply, body, status) : body;
  };
  app.get(
    '/admin/users',
    routeOptions,
    page$(async (signed, request, reply) => {
      adminOnly(signed);
      return usersPage(signed, undefined, 200, reply, noNewUser, pageNumberOf(request));
    }),
  );
  const toUsers = { redirect: '/ui/admin/users' };
  const usersRefused = (signed: Signed, _input: unknown, answer: ApiAnswer) =>
    usersPage(signed, errorMessage(answer));
  const NEW_USER_FIELDS = ['username', 'email', 'password', 'role'];
  const NEW_USER_LABELS: Readonly<Record<string, string>> = {
    username: 'Username',
    email: 'E-mail',
    password: 'Password',
    role: 'Role',
  };
  submit('/admin/users', {
    read(signed, request) {
      adminOnly(signed);
      const body = request.body as Form;
      return {
        username: one(body.username),
        email: one(body.email),
        password: one(body.password),
        role: one(body.role),
      };
    },
    call: (signed, payload) => signed.api('POST', '/users', { payload }),
    accepted: () => toUsers,
    refused(signed, { username, email, role }, answer) {
      const message = errorMessage(answer);
      const field = fieldNamedIn(NEW_USER_FIELDS, message);
      return usersPage(signed, field ? undefined : message, 200, undefined, {
        values: { username, email, role },
        errors: field ? { [field]: fieldMessage(message) } : {},
      });
    },
  });
  submit('/admin/users/:id', {
    read(signed, request) {
      adminOnly(signed);
      const id = (request.params as { id: string }).id;
      if (!PLAIN_UUID.test(id)) throw new ApiError(404, 'No such user');
      const body = request.body as Form;
      return { id, role: one(body.role), inactive: one(body.inactive_status) === 'true' };
    },
    async call(signed, { id, role, inactive }) {
      const current = await signed.api<Row>('GET', `/users/${id}`);
      answered(current);
      // The API keeps the last active admin (it refuses the change); the page shows its answer.
      return signed.api('PUT', `/users/${id}`, {
        payload: {
          username: current.body.username,
          email: current.body.email,
          role,
          inactive_status: inactive,
        },
      });
    },
    accepted: () => toUsers,
    refused: usersRefused,
  });

  /**
   * A token just created, kept for the one page that shows it: by session, for a few minutes,
   * taken (and so forgotten) when shown. In this process's memory, never in the database or
   * an address: behind several instances the redirect must reach the same one (sticky
   * sessions), or the token is not shown and is revoked and made again.
   */
  const newTokens = new Map<string, { token: string; until: number }>();
  const NEW_TOKEN_MS = 5 * 60 * 1000;
  const keepNewToken = (signed: Signed, token: string) => {
    const now = Date.now();
    for (const [session, kept] of newTokens) if (kept.until < now) newTokens.delete(session);
    newTokens.set(signed.session.idHash, { token, until: now + NEW_TOKEN_MS });
  };
  const takeNewToken = (signed: Signed): string | undefined => {
    const kept = newTokens.get(signed.session.idHash);
    newTokens.delete(signed.session.idHash);
    return kept && kept.until >= Date.now() ? kept.token : undefined;
  };

  /** The new-token form as the admin left it, and the API's refusal beside its field. */
  interface NewTokenForm {
    values: { name: string; scopes: readonly string[]; expiresOn: string };
    errors: Record<string, string>;
  }
  const noNewToken: NewTokenForm = {
    values: { name: '', scopes: ['events:write'], expiresOn: '' },
    errors: {},
  };
  const NEW_TOKEN_FIELDS = ['name', 'scopes', 'expires_at'];
  const NEW_TOKEN_LABELS: Readonly<Record<string, string>> = {
    name: 'Name',
    scopes: 'Scopes',
    expires_at: 'Expires on',
  };
  const NEW_TOKEN_IDS: Readonly<Record<string, string>> = {
    name: 'token-name',
    scopes: 'token-scopes',
    expires_at: 'token-expires',
  };

  const tokensPage = async (
    signed: Signed,
    notice?: Html,
    form: NewTokenForm = noNewToken,
    formError?: string,
    pageNumber = 1,
  ) => {
    const answer = answered(
      await signed.api<PagedRows>(
        'GET',
        `/api-tokens?limit=${ADMIN_PAGE_SIZE}&page=${pageNumber}&sortby=name:asc`,
      ),
    );
    const tokens = answer.body?.data ?? [];
    const typed = form.values;
    return page(
      signed.context,
      'API tokens',
      html`${notice ?? ''}
      ${adminTable(
        tokens,
        'API tokens',
        '/ui/admin/tokens',
        pageNumber,
        answer.body?.meta,
        () => html`<table class="list"><thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Scopes</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>${tokens.map(
        (
          token,
        ) => html`<tr><td>${textOf(token.name)}</td><td><code>${textOf(token.token_prefix)}</code></td><td>${textOf(token.scopes)}</td><td>${textOf(token.expires_at)}</td>
        <td><a class="button danger" href="/ui/admin/tokens/${String(token.id)}/revoke">Revoke<span class="visually-hidden"> token ${textOf(token.name)}</span></a></td></tr>`,
      )}</tbody></table>`,
      )}
      ${numberedPaging('/ui/admin/tokens', pageNumber, answer.body?.meta)}
      <h2>New token</h2>
      <form method="post" action="/ui/admin/tokens" class="record-form">${csrfField(signed.context)}
        ${labelledField(
          'token-name',
          form.errors.name,
          'Name',
          (attributes) =>
            html`<input id="token-name" name="name" required maxlength="100" value="${typed.name}"${attributes}>`,
        )}
        ${checkboxGroup({
          id: 'token-scopes',
          name: 'scopes',
          legend: 'Scopes',
          choices: API_TOKEN_SCOPES,
          chosen: typed.scopes,
          error: form.errors.scopes,
          hint: 'events:write reports events; events:read lists and reads them.',
        })}
        ${labelledField(
          'token-expires',
          form.errors.expires_at,
          'Expires on (optional)',
          (attributes) =>
            html`<input id="token-expires" type="date" name="expires_on" value="${typed.expiresOn}"${attributes}>`,
          'At the end of that day (UTC). Empty: the token does not expire.',
        )}
        <button type="submit">Create token</button></form>`,
      [],
      [
        ...(formError ? [{ text: formError }] : []),
        ...Object.entries(form.errors).map(([name, text]) => ({
          text: `${NEW_TOKEN_LABELS[name] ?? name}: ${text}`,
          field: NEW_TOKEN_IDS[name],
        })),
      ],
    );
  };
  app.get(
    '/admin/tokens',
    routeOptions,
    page$(async (signed, request, reply) => {
      adminOnly(signed);
      const created = takeNewToken(signed);
      return send(
        reply,
        await tokensPage(
          signed,
          created === undefined
            ? undefined
            : html`<div class="notice" role="status"><p>Copy the token now: it is shown only once.</p><p><code class="secret" id="new-token">${created}</code></p></div>`,
          noNewToken,
          undefined,
          pageNumberOf(request),
        ),
      );
    }),
  );
  submit('/admin/tokens', {
    read(signed, request) {
      adminOnly(signed);
      const body = request.body as Form;
      return { name: one(body.name), scopes: many(body.scopes), expiresOn: one(body.expires_on) };
    },
    call: (signed, { name, scopes, expiresOn }) =>
      signed.api<{ token?: string }>('POST', '/api-tokens', {
        payload: {
          name,
          scopes,
          // A day (the date input's value) ends the token at its last second, UTC; anything
          // else typed is passed on for the API to refuse beside the field.
          ...(expiresOn === ''
            ? {}
            : {
                expires_at: /^\d{4}-\d{2}-\d{2}$/.test(expiresOn)
                  ? `${expiresOn}T23:59:59Z`
                  : expiresOn,
              }),
        },
      }),
    // Post, redirect, get: a reload of the page that shows the token does not post again (a
    // second token). The token waits for that one GET on the server, never in an address.
    accepted: (_input, answer, signed) => {
      keepNewToken(signed, String((answer?.body as { token?: unknown } | undefined)?.token ?? ''));
      return { redirect: '/ui/admin/tokens' };
    },
    refused(signed, { name, scopes, expiresOn }, answer) {
      const message = errorMessage(answer);
      const field = fieldNamedIn(NEW_TOKEN_FIELDS, message);
      return tokensPage(
        signed,
        undefined,
        {
          values: { name, scopes, expiresOn },
          errors: field ? { [field]: fieldMessage(message, field) } : {},
        },
        field ? undefined : message,
      );
    },
  });
  const tokenIdOf = (signed: Signed, request: FastifyRequest) => {
    adminOnly(signed);
    const id = (request.params as { id: string }).id;
    if (!PLAIN_UUID.test(id)) throw new ApiError(404, 'No such token');
    return id;
  };
  // Revoking asks first, as deleting a record does: the clients using the token stop working.
  app.get(
    '/admin/tokens/:id/revoke',
    routeOptions,
    page$(async (signed, request, reply) => {
      const id = tokenIdOf(signed, request);
      const answer = await signed.api<Row>('GET', `/api-tokens/${id}`);
      if (answer.status === 404) {
        // Back to this page after revoking (or a token revoked elsewhere) is said as such: the
        // audit trail keeps the revocation. An id no token ever had is said to be none.
        const trail = await signed.api<PagedRows>(
          'GET',
          `/audit-logs?${new URLSearchParams({ resource_type: 'api-tokens', resource_id: id, action: 'delete', limit: '1', fields: 'id' })}`,
        );
        const revoked = trail.status === 200 && (trail.body?.data?.length ?? 0) > 0;
        return send(
          reply,
          page(
            signed.context,
            revoked ? 'Token revoked' : 'No such token',
            revoked
              ? html`<p class="notice" role="status">This API token has been revoked: it no longer works.</p><p><a href="/ui/admin/tokens">Back to the API tokens</a></p>`
              : html`<p class="alert" role="alert">No such token: no API token has this id (it may have been revoked).</p><p><a href="/ui/admin/tokens">Back to the API tokens</a></p>`,
            [{ label: 'API tokens', href: '/ui/admin/tokens' }, { label: 'Revoke' }],
          ),
          404,
        );
      }
      const token = answered(answer).body;
      const name = textOf(token.name);
      return send(
        reply,
        page(
          signed.context,
          `Revoke the token ${isolate(name)}?`,
          html`<form method="post" action="/ui/admin/tokens/${id}/revoke">${csrfField(signed.context)}
          <input type="hidden" name="name" value="${name}">
          <p>The token ${name} (prefix <code>${textOf(token.token_prefix)}</code>, scopes ${textOf(token.scopes)}) stops working at once: every client that uses it is refused from then on. This cannot be undone.</p>
          <button type="submit" class="danger">Revoke token ${name}</button> <a href="/ui/admin/tokens">Cancel</a></form>`,
          [{ label: 'API tokens', href: '/ui/admin/tokens' }, { label: 'Revoke' }],
        ),
      );
    }),
  );
  submit('/admin/tokens/:id/revoke', {
    read: (signed, request) => ({
      id: tokenIdOf(signed, request),
      name: one((request.body as Form).name),
    }),
    call: (signed, { id }) => signed.api('DELETE', `/api-tokens/${id}`),
    accepted: ({ name }) => ({
      redirect: '/ui/admin/tokens',
      flash: name ? `Revoked the token ${name}.` : 'Revoked the token.',
    }),
  });
}
