import { createHash, randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import {
  isMobileAppReturn,
  MOBILE_APP_RETURN,
  mobileAppReturn,
  type OAuthState,
  parseOAuthState,
  redirectAllowed,
} from '../auth/oauth-state.js';
import { OAUTH_DEFAULTS } from '../config.js';
import type { RouteOptions } from '../context.js';
import { hashToken } from '../db/sessions.js';
import type { PendingCredentials } from '../db/single-use.js';
import { toChatError } from '../error-handler.js';
import { invalidRequest, methodNotAllowed, notFound } from '../errors.js';
import { type ConfiguredService, verifiedIdentity } from '../providers/registry.js';
import {
  RESULT_PAGE_HEADERS,
  RESULT_SCRIPT_PATH,
  RESULT_SCRIPTS,
  type ResultScript,
  renderResultPage,
  rootPathOf,
} from '../ui/oauth-result.js';
import type { SchemaError } from '../validation.js';

export interface OAuthRedirectOptions extends RouteOptions {
  pendingCredentials: PendingCredentials;
}

/** The callback registered at the provider for a service. */
export const callbackUrl = (rootUrl: string, service: string) =>
  `${rootUrl}/_oauth/${encodeURIComponent(service)}`;

/** Where a client starts a flow the service runs with PKCE (`settings.oauth`'s authorizePath). */
export const authorizePath = (service: string) =>
  `/_oauth/${encodeURIComponent(service)}/authorize`;

/** Whether a space-separated scope (RFC 6749 3.3) names exactly these scopes. */
function sameScopes(scope: string, expected: readonly string[]): boolean {
  const asked = new Set(scope.split(' ').filter((name) => name !== ''));
  return asked.size === new Set(expected).size && expected.every((name) => asked.has(name));
}

/**
 * The cookie binding a flow the service starts to the browser that started it (its SHA-256 is
 * kept with the flow): the return address carries the code and the state, so without it whoever
 * loaded that address first would get the credential secret. One cookie per flow, named after the
 * flow's token, so flows in several tabs keep theirs; its value is always the service's own, never
 * one the browser brought (a neighbouring site can plant cookies).
 */
const browserCookieName = (credentialToken: string) =>
  `chat_oauth_${createHash('sha256').update(credentialToken).digest('base64url').slice(0, 16)}`;

function browserCookie(
  cookies: Record<string, string | undefined>,
  credentialToken: string,
): string | undefined {
  const value = cookies[browserCookieName(credentialToken)];
  return value !== undefined && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
}

const hashOrNull = (cookie: string | undefined) =>
  cookie === undefined ? null : hashToken(cookie);

const ServiceParams = Type.Object({ service: Type.String({ maxLength: 64 }) });
const Printable = (maxLength: number) => Type.String({ maxLength, pattern: '^[\\x20-\\x7e]*$' });

/** The provider's return (RFC 6749 4.1.2 and 4.1.2.1); other parameters are ignored. */
const ReturnQuery = Type.Object({
  /**
   * Rocket.Chat's mobile app starts GitHub and Facebook flows at the provider itself with
   * `redirect_uri={server}/_oauth/<service>?close`, so the return carries it back.
   */
  close: Type.Optional(Type.Literal('')),
  code: Type.Optional(Printable(2048)),
  state: Type.Optional(Printable(4096)),
  error: Type.Optional(Printable(256)),
  // Logged for the operator, in whatever language the provider writes; never shown on the page.
  error_description: Type.Optional(
    Type.String({ maxLength: 1024, pattern: '^[^\\x00-\\x1f\\x7f]*$' }),
  ),
});

/**
 * What a provider's `error` code (RFC 6749 4.1.2.1, OpenID Connect Core 3.1.2.6) means, in plain
 * words; `access_denied` is the person cancelling, answered apart.
 */
const PROVIDER_ERRORS = new Map<string, string>([
  ['invalid_request', 'the identity provider refused the sign-in request; start again'],
  [
    'unauthorized_client',
    'the identity provider does not let this service sign people in this way; tell the administrator',
  ],
  [
    'unsupported_response_type',
    'the identity provider does not let this service sign people in this way; tell the administrator',
  ],
  ['invalid_scope', 'the identity provider refused the access this service asks for'],
  ['server_error', 'the identity provider failed; start again later'],
  ['temporarily_unavailable', 'the identity provider is unavailable for now; start again later'],
  ['login_required', 'the identity provider asks you to sign in there first; start again'],
  ['consent_required', 'the identity provider needs your consent; start again'],
  ['interaction_required', 'the identity provider needs you to act there; start again'],
]);
const PROVIDER_REFUSED = 'the identity provider refused the sign-in; start again';

/**
 * A provider's error or error_description as logged: no control, format (bidi overrides,
 * invisible marks) or line-separator character, which could reorder or hide what an operator
 * reads in a terminal.
 */
const loggedProviderText = (text: string) =>
  text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '').trim();

/** The address's parameters, named for the person reading a failure page. */
const PARAMETER_LABELS: Record<string, string> = {
  service: "the service's name",
  state: 'the sign-in state (state)',
  code: "the identity provider's code (code)",
  error: "the identity provider's error (error)",
  error_description: "the identity provider's error description (error_description)",
  client_id: 'the client id (client_id)',
  redirect_uri: 'the return address (redirect_uri)',
  scope: 'the scope (scope)',
  response_type: 'the response type (response_type)',
  close: '"close"',
};
const AGAIN = 'start again from the application';

/**
 * A refused address of the redirect flow in plain words, naming the parameter by what it is and
 * never repeating its value (anyone can make such an address): what the browser was sent to is
 * wrong, so the person starts again.
 */
function addressProblem(errors: readonly SchemaError[], given: unknown): string {
  const first = errors.find((error) => error.keyword === 'required') ?? errors[0];
  if (!first) return `the address is not one of this service's; ${AGAIN}`;
  const name =
    first.keyword === 'required'
      ? String((first.params.requiredProperties as string[] | undefined)?.[0] ?? '')
      : (first.instancePath.split('/')[1] ?? '');
  const label = Object.hasOwn(PARAMETER_LABELS, name) ? PARAMETER_LABELS[name] : 'a parameter';
  const value = (given as Record<string, unknown> | undefined)?.[name];
  if (first.keyword === 'required') {
    return `the address has no ${label?.replace(/^the /, '')}; ${AGAIN}`;
  }
  if (Array.isArray(value)) return `the address holds ${label} more than once; ${AGAIN}`;
  if (name === 'close') {
    return `the return address has a value for "close", where this service gives out "?close" with none; ${AGAIN}`;
  }
  if (name === 'response_type') {
    return `the address asks for a response_type other than "code", the only one this service signs in with; ${AGAIN}`;
  }
  if (first.keyword === 'maxLength') {
    return `${label} in the address is longer than ${String(first.params.limit)} characters; ${AGAIN}`;
  }
  if (first.keyword === 'pattern') {
    return `${label} in the address holds characters it never has; ${AGAIN}`;
  }
  return `${label} in the address is not valid; ${AGAIN}`;
}

/** What a client sends to start a flow: Rocket.Chat's clients add client_id, scope, redirect_uri. */
const StartQuery = Type.Object({
  state: Printable(4096),
  client_id: Type.Optional(Printable(4096)),
  redirect_uri: Type.Optional(Printable(2048)),
  scope: Type.Optional(Printable(2048)),
  response_type: Type.Optional(Type.Literal('code')),
});

/**
 * Meteor's OAuth redirect flow, the way Rocket.Chat's web client and mobile app sign in:
 * - `GET /_oauth/<service>/authorize?state=…`: optional start by the service, which adds PKCE
 *   (RFC 7636, S256) and, for OpenID Connect, a `nonce` the ID token must carry back, and sends
 *   the browser to the provider;
 * - `GET /_oauth/<service>?code=…&state=…`: the provider's return. The code is exchanged and the
 *   identity verified by the service's provider module, then kept as a pending credential under
 *   the state's credentialToken with a fresh credentialSecret, and the page hands the pair to the
 *   client (popup or redirect style), which logs in with `{"oauth": {…}}`.
 * Every step is in the database, so any instance can take any of them.
 */
const oauthRedirectRoutes: FastifyPluginAsyncTypebox<OAuthRedirectOptions> = async (
  app,
  { context, pendingCredentials },
) => {
  const { config, services, now } = context;
  await app.register(fastifyCookie);
  const flow = config.oauth ?? {
    ...OAUTH_DEFAULTS,
    redirectOrigins: [new URL(config.siteUrl).origin],
  };
  // The browser reaches these routes under ROOT_URL's path (a proxy strips it before here).
  const rootPath = rootPathOf(config.siteUrl);
  const cookiePath = `${rootPath}/_oauth/`;
  const mobileReturn = (url: string) => flow.mobileAppReturn && isMobileAppReturn(url);
  const limit = {
    auth: 'public' as const,
    rateLimit: { max: config.loginRateLimit, timeWindow: 60_000 },
  };
  // Both steps change state (a flow started, a code exchanged): a HEAD from a link scanner or a
  // prefetch would take the sign-in without the page that carries its secret.
  const getOnly = { exposeHeadRoute: false };
  for (const url of ['/_oauth/:service/authorize', '/_oauth/:service']) {
    app.head(url, { config: { auth: 'public' } }, async () => {
      throw methodNotAllowed(['GET']);
    });
  }

  function redirectFlowService(name: string): ConfiguredService & {
    provider: { codeFlow: NonNullable<ConfiguredService['provider']['codeFlow']> };
  } {
    const service = services.get(name);
    if (!service?.provider.codeFlow) {
      // The name comes from the address bar: echoed only when it could be a service's name, so
      // no markup or control character a link carried comes back in the answer.
      throw notFound(
        /^[\w.-]{1,64}$/.test(name)
          ? `No OAuth redirect flow for the service "${name}"`
          : 'No OAuth redirect flow for this service',
      );
    }
    return service as never;
  }

  /** A result page; an error status still renders the page, so a popup closes. */
  function page(
    reply: FastifyReply,
    status: number,
    state: OAuthState | undefined,
    problem?: string,
    cancelled = false,
  ) {
    const redirectUrl =
      state?.loginStyle === 'redirect' && state.redirectUrl
        ? mobileReturn(state.redirectUrl)
          ? mobileAppReturn(config.siteUrl, { error: problem ?? 'the sign-in failed' })
          : redirectAllowed(state.redirectUrl, flow.redirectOrigins)
            ? state.redirectUrl
            : undefined
        : undefined;
    return reply
      .status(status)
      .headers(RESULT_PAGE_HEADERS)
      .send(
        renderResultPage({
          loginStyle: state?.loginStyle ?? 'popup',
          isCordova: state?.isCordova ?? false,
          redirectUrl,
          problem,
          cancelled,
          rootPath,
        }),
      );
  }

  /**
   * Both steps run in the person's browser (often a popup the client watches): whatever fails,
   * the answer is the result page with the failure's status, never the API's JSON, so the person
   * reads what went wrong and the client learns that no secret came. Other routes of this plugin
   * keep the API's answers.
   */
  app.setErrorHandler((error: Error, request, reply) => {
    if (!request.routeOptions.url?.startsWith('/_oauth/')) throw error;
    const refused = error as Error & { validation?: SchemaError[]; validationContext?: string };
    const failure = refused.validation
      ? invalidRequest(
          addressProblem(
            refused.validation,
            refused.validationContext === 'params' ? request.params : request.query,
          ),
        )
      : toChatError(error);
    const unexpected = failure.code === 'internal-error';
    if (unexpected) request.log.error({ err: error }, 'request failed');
    else if (failure.statusCode >= 500) request.log.warn({ err: error }, 'OAuth sign-in failed');
    // The state as sent, for the page's style; a redirect destination is checked again there.
    const state = parseOAuthState((request.query as { state?: unknown } | undefined)?.state);
    return page(
      reply.headers(failure.headers),
      failure.statusCode,
      state,
      unexpected ? 'the service failed unexpectedly; start again' : failure.message,
    );
  });

  /** The state, with a redirect-style destination that is one of the deployment's own. */
  function checkedState(raw: string | undefined): OAuthState {
    const state = parseOAuthState(raw);
    if (!state) {
      throw invalidRequest(
        'state: not the base64 JSON {loginStyle, credentialToken, isCordova, redirectUrl} of a sign-in',
      );
    }
    if (state.loginStyle === 'redirect') {
      const destination = state.redirectUrl;
      if (destination && !flow.mobileAppReturn && isMobileAppReturn(destination)) {
        throw invalidRequest(
          `this deployment does not send sign-ins back to Rocket.Chat's mobile app (${MOBILE_APP_RETURN}); OAUTH_MOBILE_APP_RETURN is off`,
        );
      }
      if (
        !destination ||
        !(mobileReturn(destination) || redirectAllowed(destination, flow.redirectOrigins))
      ) {
        throw invalidRequest(
          `state.redirectUrl: must be on one of this deployment's origins (${flow.redirectOrigins.join(', ')})${flow.mobileAppReturn ? `, or ${MOBILE_APP_RETURN}` : ''}`,
        );
      }
    }
    return state;
  }

  app.get(
    '/packages/oauth/:script',
    {
      schema: { params: Type.Object({ script: Type.String({ maxLength: 64 }) }) },
      config: { auth: 'public' },
    },
    async (request, reply) => {
      const script = RESULT_SCRIPTS[request.params.script as ResultScript];
      if (!Object.hasOwn(RESULT_SCRIPTS, request.params.script) || script === undefined) {
        throw notFound(`No script ${rootPath}${RESULT_SCRIPT_PATH}${request.params.script}`);
      }
      return reply
        .headers({
          'content-type': 'text/javascript; charset=utf-8',
          'cache-control': 'public, max-age=3600',
          'x-content-type-options': 'nosniff',
        })
        .send(script);
    },
  );

  app.get(
    '/_oauth/:service/authorize',
    { schema: { params: ServiceParams, querystring: StartQuery }, config: limit, ...getOnly },
    async (request, reply) => {
      const service = redirectFlowService(request.params.service);
      const query = request.query;
      const state = checkedState(query.state);
      const redirectUri = callbackUrl(config.siteUrl, service.name);
      if (query.client_id !== undefined && query.client_id !== service.appId) {
        throw invalidRequest(`client_id: not the client id of the service "${service.name}"`);
      }
      if (query.redirect_uri !== undefined && query.redirect_uri !== redirectUri) {
        throw invalidRequest(`redirect_uri: must be ${redirectUri}`);
      }
      const codeFlow = service.provider.codeFlow;
      const scope = codeFlow.scopes.join(' ');
      // A link may carry a scope, as clients add one, but the consent asked for in this
      // service's name is what the deployment configured, in any order.
      if (query.scope !== undefined && !sameScopes(query.scope, codeFlow.scopes)) {
        throw invalidRequest(`scope: must be "${scope}" (the service's scopes, in any order)`);
      }
      // The provider first: a flow is recorded only once it can be sent there, so a start that
      // fails on the provider leaves the credentialToken free for the client's retry.
      const authorization = await codeFlow.authorizationEndpoint(
        AbortSignal.timeout(config.provider.timeoutMs),
      );
      if (authorization.warning) {
        request.log.warn({ service: service.name }, authorization.warning);
      }
      const target = new URL(authorization.url);
      const verifier = randomBytes(32).toString('base64url');
      // OpenID Connect Core 3.1.2.1: the ID token must carry it back (256 random bits).
      const nonce = codeFlow.nonce ? randomBytes(32).toString('base64url') : null;
      const started = now();
      const expiresAt = new Date(started.getTime() + flow.flowSeconds * 1000);
      const browser = randomBytes(32).toString('base64url');
      if (
        !(await pendingCredentials.start(
          state.credentialToken,
          service.name,
          verifier,
          nonce,
          hashToken(browser),
          started,
          expiresAt,
        ))
      ) {
        throw invalidRequest(
          'state.credentialToken: already used; make a new one for each sign-in',
        );
      }
      const parameters: Record<string, string> = {
        client_id: service.appId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope,
        state: query.state,
      };
      if (codeFlow.pkce) {
        parameters.code_challenge = createHash('sha256').update(verifier).digest('base64url');
        parameters.code_challenge_method = 'S256';
      }
      if (nonce !== null) parameters.nonce = nonce;
      for (const [name, value] of Object.entries(parameters)) target.searchParams.set(name, value);
      return reply
        .header('referrer-policy', 'no-referrer')
        .setCookie(browserCookieName(state.credentialToken), browser, {
          path: cookiePath,
          httpOnly: true,
          // Lax: the provider's return is a top-level navigation from another site.
          sameSite: 'lax',
          secure: new URL(config.siteUrl).protocol === 'https:',
          maxAge: flow.flowSeconds,
        })
        .redirect(target.toString(), 302);
    },
  );

  app.get(
    '/_oauth/:service',
    { schema: { params: ServiceParams, querystring: ReturnQuery }, config: limit, ...getOnly },
    async (request, reply) => {
      const service = redirectFlowService(request.params.service);
      const query = request.query;
      let state: OAuthState;
      try {
        state = checkedState(query.state);
      } catch (error) {
        return page(reply, 400, undefined, (error as Error).message);
      }
      if (query.error !== undefined) {
        // Consent denied (access_denied) or another provider error: nothing is stored, and the
        // client, finding no secret, reports the sign-in as cancelled.
        const denied = query.error === 'access_denied';
        if (denied) return page(reply, 200, state, 'the sign-in was cancelled', true);
        // The page shows none of the address's words: anyone can make such a return address, and
        // a flow "started here" proves nothing (the start is a GET any page can send a browser
        // to, with a state of its choosing). The provider's words are for the operator's log.
        request.log.info(
          {
            service: service.name,
            providerError: loggedProviderText(query.error),
            providerErrorDescription: loggedProviderText(query.error_description ?? ''),
          },
          'the identity provider returned an error',
        );
        return page(reply, 400, state, PROVIDER_ERRORS.get(query.error) ?? PROVIDER_REFUSED);
      }
      if (!query.code) return page(reply, 400, state, 'the identity provider sent no code');
      const returned = now();
      const claimed = await pendingCredentials.claimReturn(
        state.credentialToken,
        service.name,
        hashOrNull(browserCookie(request.cookies, state.credentialToken)),
        // Rocket.Chat's clients start a custom service's flow here (settings.oauth), never at the
        // provider: a return without such a start is a code carried under another state.
        service.customServerUrl !== undefined,
        returned,
        new Date(returned.getTime() + flow.flowSeconds * 1000),
      );
      if ('refused' in claimed) {
        return page(
          reply,
          400,
          state,
          claimed.refused === 'another-browser'
            ? 'this sign-in was started in another browser; finish it there, or start again here'
            : claimed.refused === 'another-service'
              ? `this sign-in was started with another service than ${service.name}; ${AGAIN}`
              : claimed.refused === 'not-started'
                ? 'this sign-in was not started here; start it again from the application'
                : 'this sign-in was already completed, or has expired; start again',
        );
      }
      const codeFlow = service.provider.codeFlow;
      if (codeFlow.nonce && claimed.nonce === null) {
        // A flow recorded before nonces were kept: its ID token could not be bound to it.
        return page(reply, 400, state, 'this sign-in was started before an update; start again');
      }
      const signal = AbortSignal.timeout(config.provider.timeoutMs);
      const exchange = {
        code: query.code,
        // RFC 6749 4.1.3: the redirect_uri the authorization request named, exactly (Facebook
        // refuses the code otherwise), which the return shows by what it carries.
        redirectUri: `${callbackUrl(config.siteUrl, service.name)}${query.close === undefined ? '' : '?close'}`,
        codeVerifier: claimed.codeVerifier ?? undefined,
        nonce: claimed.nonce ?? undefined,
      };
      const credentials = await codeFlow.exchange(exchange, signal);
      const identify = codeFlow.identify?.bind(codeFlow);
      const identity = await verifiedIdentity(
        service,
        credentials,
        signal,
        (message) => request.log.warn(message),
        identify && ((given, shared) => identify(given, exchange, shared)),
      );
      const secret = randomBytes(32).toString('base64url');
      const pair = { token: state.credentialToken, secret };
      await pendingCredentials.complete(
        state.credentialToken,
        hashToken(secret),
        identity,
        new Date(now().getTime() + flow.credentialSeconds * 1000),
      );
      return reply
        .status(200)
        .headers(RESULT_PAGE_HEADERS)
        .send(
          renderResultPage({
            rootPath,
            loginStyle: state.loginStyle,
            isCordova: state.isCordova,
            credentials: pair,
            redirectUrl:
              state.loginStyle === 'redirect' &&
              state.redirectUrl &&
              mobileReturn(state.redirectUrl)
                ? mobileAppReturn(config.siteUrl, { credentials: pair })
                : state.redirectUrl,
          }),
        );
    },
  );
};

export default oauthRedirectRoutes;
