import type { FastifyError, FastifyInstance } from 'fastify';
import { type ConstraintMessages, translateDatabaseError } from '../db/errors.js';
import { ApiError, errorBody } from '../errors.js';
import { EXPECTED, propertyNameRefusal } from '../resources/definition.js';
import { invalidConditionMessage } from '../resources/etags.js';
import {
  describeIssue,
  firstIssue,
  itemIssueMessage,
  textPatternReason,
  type ValidationIssue,
} from './validation.js';

const CONTEXT_NAMES: Record<string, string> = {
  body: 'body field',
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
};

/**
 * Turns the validator's report into one sentence naming the field. An item of an array body (a
 * bulk create, a batch) is named by its index, as `Item 3 (ip): Invalid IP address format`, in
 * the words a CSV import's row gets (describeIssue).
 */
export function validationMessage(context: string, issues: readonly ValidationIssue[]): string {
  const issue = firstIssue(issues);
  if (!issue) return 'Invalid request';
  const refusedName = propertyNameMessage(issue);
  if (refusedName) return refusedName;
  if (context === 'body') {
    const item = itemIssueMessage(issue, issues);
    if (item) return item;
  }
  const path = issue.instancePath.replace(/^\//, '');
  if (issue.keyword === 'format' && issue.params.format === 'ip') {
    return context === 'body'
      ? 'Invalid IP address format'
      : `Invalid IP address format in ${CONTEXT_NAMES[context] ?? context} ${path}`;
  }
  // A conditional header (If-Match, If-None-Match) that is no list of entity tags, or too long
  // to be one a client would send.
  if (context === 'headers' && (issue.keyword === 'pattern' || issue.keyword === 'maxLength')) {
    const header = path.replace(
      /(^|-)([a-z])/g,
      (_, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`,
    );
    return issue.keyword === 'pattern'
      ? invalidConditionMessage(header)
      : `Invalid ${header} header: longer than ${issue.params.limit} characters`;
  }
  // A query value outside its grammar (a sort key, a control character): the value, and what
  // is wrong with it or what the parameter takes.
  if (context === 'querystring' && issue.keyword === 'pattern') {
    const refused = `Invalid ${path.split('/')[0]} ${JSON.stringify(issue.data)}`;
    const reason = textPatternReason(issue);
    if (reason) return `${refused}: ${reason}`;
    const expected = issue.parentSchema?.[EXPECTED];
    return typeof expected === 'string'
      ? `${refused}: expected ${expected}`
      : `${refused}: must match pattern ${String(issue.params.pattern)}`;
  }
  if (issue.keyword === 'format' && issue.params.format === 'uuid') {
    return `${context}/${path} must be a UUID`;
  }
  if (issue.keyword === 'additionalProperties') {
    const field = [path, issue.params.additionalProperty].filter(Boolean).join('/');
    return `Unknown ${CONTEXT_NAMES[context] ?? context}: ${field}`;
  }
  if (issue.keyword === 'required') {
    const field = [path, issue.params.missingProperty].filter(Boolean).join('/');
    return `Missing required ${CONTEXT_NAMES[context] ?? context}: ${field}`;
  }
  if (
    issue.keyword === 'enum' ||
    issue.keyword === 'const' ||
    (context === 'body' && textPatternReason(issue))
  ) {
    return `${context}/${path} ${describeIssue(issue, issues).reason}`;
  }
  // Fastify's own form, e.g. `body/vlan_id must be <= 4094`.
  return `${path ? `${context}/${path}` : context} ${issue.message ?? 'is invalid'}`;
}

/**
 * A property name its object's `propertyNames` refuses, named with why: the reason its schema
 * gives for that name, in any letter case, else what a name must be (propertyNamesSchema).
 * `headers.Host: set by the delivery itself; remove it`; an item of an array body as
 * `Item 2 (headers.Host): …`. A name that is not printable ASCII without spaces is quoted.
 */
function propertyNameMessage(issue: ValidationIssue): string | undefined {
  const name = (issue as { propertyName?: unknown }).propertyName;
  if (typeof name !== 'string') return undefined;
  const reason =
    propertyNameRefusal(issue.params.pattern, name) ?? issue.message ?? 'is not allowed';
  const shown = /^[\x21-\x7e]+$/.test(name) ? name : JSON.stringify(name);
  const path = issue.instancePath.replace(/^\//, '').split('/');
  const item = /^[0-9]+$/.test(path[0] ?? '') ? path.shift() : undefined;
  const field = [...path.filter(Boolean), shown].join('.');
  return item === undefined ? `${field}: ${reason}` : `Item ${item} (${field}): ${reason}`;
}

/** Fastify's client-error codes and the message each gets. */
const FASTIFY_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Empty JSON body',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported media type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Invalid Content-Length',
  FST_ERR_CTP_INVALID_TYPE: 'Invalid Content-Type',
};

/** What a request gets while the database cannot be reached (README, Errors). */
export const DATABASE_UNAVAILABLE = 'Database unavailable, try again';
/**
 * Seconds a client should wait before retrying after a 503: long enough for a PostgreSQL restart
 * or fail-over to finish, short enough that clients come back soon after it.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const OUTAGE_LOG_INTERVAL_MS = 5000;

/** Socket-level failures of the connection to PostgreSQL (Node's system error codes). */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs meaning "the server cannot serve this now", not "this statement is wrong": class 08
 * (connection exception), 57P01 admin_shutdown (`pg_ctl stop -m fast`), 57P02 crash_shutdown
 * (another backend crashed, or `-m immediate`), 57P03 cannot_connect_now (starting up or shutting
 * down), 53300 too_many_connections, 57014 query_canceled (the statement ran past
 * DATABASE_QUERY_TIMEOUT_MS, waiting on locks or an overloaded server, and PostgreSQL rolled it
 * back: nothing was written, so the retry Retry-After invites is safe), 53100 disk_full (the
 * database's disk is full: the statement rolled back, and the same write succeeds once space is
 * freed; on the embedded store a full disk that fails a WAL write is a PANIC instead, 57P02 from
 * the store, and the service exits to be restarted).
 */
const UNAVAILABLE_SQLSTATES = /^(08[0-9A-Z]{3}|57P0[123]|57014|53300|53100)$/;

/**
 * SQLSTATEs that mean "unavailable" only as a FATAL error, which the server sends when it refuses
 * a new connection or ends a session: 55000 (`ALTER DATABASE … ALLOW_CONNECTIONS false`, during a
 * restore or maintenance: "database … is not currently accepting connections"), 3D000 (the
 * database is gone, dropped or renamed, as a restore does) and 57P04 database_dropped. From a
 * statement (severity ERROR) the same codes are the statement's fault, a 500: 55000 is also
 * currval before nextval. Authentication failures (28000, 28P01) stay 500: a configuration error.
 */
const UNAVAILABLE_WHEN_FATAL = /^(55000|3D000|57P04)$/;

/**
 * What `pg` and its pool say without a code: a connection lost mid-query, a client used after
 * its connection died, the pool's connect timeout (connectTimeoutMs in packages/store).
 */
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error and is not queryable|timeout exceeded when trying to connect|Connection terminated due to connection timeout)/;

/**
 * Whether `error` says the database cannot be reached (down, restarting, unreachable), as opposed
 * to a fault of the statement or of the service. Looks through `cause` and AggregateError's
 * `errors` (Node reports a refused connection to `localhost` as one per address tried).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 4) return false;
  const { code, severity, syscall, message, cause, errors } = error as {
    code?: unknown;
    severity?: unknown;
    syscall?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  // A system error of our own socket names its syscall (`connect`, `read`, `write`); the client
  // aborting its request body is an ECONNRESET too ("aborted"), but without one, and is no outage.
  if (typeof code === 'string' && typeof syscall === 'string' && CONNECTION_ERROR_CODES.has(code)) {
    return true;
  }
  if (typeof code === 'string' && UNAVAILABLE_SQLSTATES.test(code)) return true;
  if (typeof code === 'string' && severity === 'FATAL' && UNAVAILABLE_WHEN_FATAL.test(code)) {
    return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) {
    return true;
  }
  return cause !== undefined && isDatabaseUnavailable(cause, depth + 1);
}

/** The 503 every request gets while the database is unavailable. */
export const databaseUnavailable = () =>
  new ApiError(503, DATABASE_UNAVAILABLE, {
    'retry-after': String(DATABASE_RETRY_AFTER_SECONDS),
  });

/**
 * The one error handler: every error the API answers with is rendered here as
 * `{status: "error", message}`. Client mistakes keep their 4xx; anything unexpected is a 500
 * whose details go to the log, never to the client.
 */
export function installErrorHandler(app: FastifyInstance, constraints: ConstraintMessages) {
  let lastOutageLogAt = Number.NEGATIVE_INFINITY;
  let refusedSinceLog = 0;
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.statusCode).headers(error.headers).send(errorBody(error.message));
    }
    if (error.validation) {
      const message = validationMessage(error.validationContext ?? 'request', error.validation);
      return reply.status(400).send(errorBody(message));
    }
    if (isDatabaseUnavailable(error)) {
      // An outage is not a bug of the request: a warning with the driver's code and message
      // (they name host and port, never the URL's password), no stack, and at most one per
      // OUTAGE_LOG_INTERVAL_MS with the count of requests refused since, so that an outage under
      // load does not flood the log.
      refusedSinceLog++;
      const now = Date.now();
      if (now - lastOutageLogAt >= OUTAGE_LOG_INTERVAL_MS) {
        request.log.warn(
          {
            err: { code: (error as { code?: unknown }).code, message: error.message },
            refused: refusedSinceLog,
          },
          'database unavailable: answering 503',
        );
        lastOutageLogAt = now;
        refusedSinceLog = 0;
      }
      const unavailable = databaseUnavailable();
      return reply
        .status(unavailable.statusCode)
        .headers(unavailable.headers)
        .send(errorBody(unavailable.message));
    }
    const fromDatabase = translateDatabaseError(error, constraints);
    if (fromDatabase) {
      return reply.status(fromDatabase.statusCode).send(errorBody(fromDatabase.message));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (parsing, limits); the JSON parser's message is replaced
      // so nothing of the parser's internals leaks.
      const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
      const message =
        known ?? (error instanceof SyntaxError ? 'Malformed JSON body' : error.message);
      return reply.status(status).send(errorBody(message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(errorBody('Internal Server Error'));
  });
}
