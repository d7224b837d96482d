import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ChatError, type ErrorCode, errorBody, invalidRequest, notFound } from './errors.js';
import { RESULT_PAGE_HEADERS, renderResultPage } from './ui/oauth-result.js';
import { describeSchemaErrors, type SchemaError } from './validation.js';

/**
 * Where anything thrown becomes an answer: every error, whoever raised it (a route, a hook,
 * Fastify's router or body parser, Node's HTTP parser), is turned into a ChatError here and
 * rendered in the service's one error shape (errors.ts).
 */

/** Fastify's own 4xx errors, by code, in the service's vocabulary. */
const FRAMEWORK_ERRORS: Record<string, { code: ErrorCode; message?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid-request', message: 'The body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid-request', message: 'The body is empty' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload-too-large', message: 'The body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported-media-type',
    message: 'Send the body as application/json',
  },
  // Router refusals, answered through `frameworkErrors` (a 300-character `/avatar/...` was a 414
  // in Fastify's own shape, found by fuzzing).
  FST_ERR_BAD_URL: { code: 'invalid-request', message: 'The URL is not valid' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'invalid-request', message: 'A part of the URL is too long' },
};

/**
 * Database errors that mean "the store cannot serve this right now" rather than a bug; 57014 is
 * a statement PostgreSQL cancelled and rolled back at the store's deadline, 53100 a full disk
 * (the statement rolled back; it succeeds once there is space), 57P02 also the embedded store
 * after its PostgreSQL failed past recovery, until the service has exited to be restarted.
 */
const STORE_DOWN =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|Connection terminated|timeout exceeded when trying to connect|57P0[1-3]|57014|53300|53100/;

/** Turns anything thrown into the ChatError that is rendered; unknown errors become 500. */
export function toChatError(error: FastifyError | Error): ChatError {
  if (error instanceof ChatError) return error;
  const fastifyError = error as FastifyError & { validation?: SchemaError[] };
  if (fastifyError.validation) {
    return invalidRequest(describeSchemaErrors(fastifyError.validation, ''));
  }
  const known = fastifyError.code ? FRAMEWORK_ERRORS[fastifyError.code] : undefined;
  const status = fastifyError.statusCode ?? 500;
  if (known) return new ChatError(status, known.code, known.message ?? error.message);
  if (error instanceof SyntaxError && status === 400) {
    return invalidRequest('The body is not valid JSON');
  }
  if (status >= 400 && status < 500) {
    return new ChatError(status, status === 404 ? 'not-found' : 'invalid-request', error.message);
  }
  const { code: pgCode, severity } = error as { code?: unknown; severity?: unknown };
  // A FATAL ends the session it is sent on: at connect, PostgreSQL refusing the database
  // (55000 "not currently accepting connections", 57P03 starting up, 53300 too many clients).
  if (
    severity === 'FATAL' ||
    STORE_DOWN.test(`${error.message} ${typeof pgCode === 'string' ? pgCode : ''}`)
  ) {
    return new ChatError(503, 'service-unavailable', 'The database is not available; try again');
  }
  return new ChatError(500, 'internal-error', 'Internal error');
}

/**
 * Requests Node's HTTP parser refuses (a control byte in a header, headers over the size limit, a
 * client too slow to send them) never reach a route or the error handler; Fastify's default answer
 * to them has another shape. They are answered here in the service's shape, and the connection
 * closed, since the parser cannot find where the next request would start.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const chatError =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new ChatError(408, 'request-timeout', 'The request was not received in time')
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? new ChatError(431, 'headers-too-large', 'The request headers are too large')
        : invalidRequest('The request is not valid HTTP');
  const body = JSON.stringify(errorBody(chatError));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${chatError.statusCode} ${STATUS_CODES[chatError.statusCode]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Fastify's router refusals (a URL it cannot parse), in the service's shape. Under `/_oauth/` the
 * address is a person's browser (often a popup a client watches), so the answer is the result
 * page the redirect flow answers every other failure with; no route ran, so nothing of the
 * address, its state included, is trusted to choose a destination: the page stays open and says
 * why. `rootPath` is ROOT_URL's path, before the page's script.
 */
export function frameworkErrors(
  rootPath: string,
): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (error, request, reply) => {
    const chatError = toChatError(error);
    if (request.url.startsWith('/_oauth/')) {
      reply
        .status(chatError.statusCode)
        .headers(RESULT_PAGE_HEADERS)
        .send(
          renderResultPage({
            loginStyle: 'popup',
            isCordova: false,
            problem: chatError.message,
            rootPath,
          }),
        );
      return;
    }
    reply.status(chatError.statusCode).send(errorBody(chatError));
  };
}

/** The one error handler and the JSON 404; a 5xx is logged with what caused it. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const chatError = toChatError(error);
    if (chatError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    return reply.status(chatError.statusCode).headers(chatError.headers).send(errorBody(chatError));
  });
  app.setNotFoundHandler((request) => {
    throw notFound(`No route ${request.method} ${request.url.split('?')[0]}`);
  });
}
