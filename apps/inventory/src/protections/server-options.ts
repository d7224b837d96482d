import { readFileSync } from 'node:fs';
import {
  type Server as HttpServer,
  type ServerOptions as NodeHttpOptions,
  STATUS_CODES,
} from 'node:http';
import type { ServerOptions as HttpsServerOptions } from 'node:https';
import type { Duplex } from 'node:stream';
import type { FastifyHttpOptions, FastifyInstance, FastifyReply } from 'fastify';
import { errorBody } from '../errors.js';
import type { ProtectionsConfig, ServerTimeouts } from './config.js';
import { PROTECTIONS_DEFAULTS } from './config.js';
import { REQUEST_ID_HEADER, requestIdFor } from './request-id.js';
import { PERMISSIONS_POLICY } from './security-headers.js';

/**
 * The protections that Fastify only takes in its constructor. The core builds its app with
 * `Fastify({ ...fastifyServerOptions(config.protections), logger })`.
 *
 * Typed as HTTP options with an optional `https` member on purpose: Fastify's overloads would type
 * an app built with `https` as `FastifyInstance<https.Server>`, which the core's plugins (typed
 * for the default server) would not accept. At run time an https.Server offers the same API.
 */
export type ProtectionsServerOptions = FastifyHttpOptions<HttpServer> & {
  https?: HttpsServerOptions;
};

export function fastifyServerOptions(
  config: Pick<ProtectionsConfig, 'bodyLimit' | 'trustProxy' | 'tls'> &
    Partial<Pick<ProtectionsConfig, 'timeouts'>>,
): ProtectionsServerOptions {
  const timeouts = config.timeouts ?? PROTECTIONS_DEFAULTS.timeouts;
  const nodeOptions = nodeServerOptions(timeouts);
  const options: ProtectionsServerOptions = {
    // Larger bodies get 413 (FST_ERR_CTP_BODY_TOO_LARGE) before any parsing.
    bodyLimit: config.bodyLimit,
    // request.ip (and so the rate-limit key) comes from X-Forwarded-For only through these peers.
    trustProxy: config.trustProxy === false ? false : [...config.trustProxy],
    // Our genReqId validates X-Request-Id itself; Fastify's header option would take any value.
    requestIdHeader: false,
    genReqId: requestIdFor,
    // On close, drop idle keep-alive sockets at once but let in-flight requests finish.
    forceCloseConnections: 'idle',
    // Slow and idle clients (see ServerTimeouts): Fastify applies these three to the server it
    // creates; the headers timeout and its checking interval go to Node's createServer below.
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionTimeout: timeouts.connectionMs,
    http: nodeOptions,
    clientErrorHandler,
    // URLs the router refuses before any route or hook runs; Fastify's own answer would be
    // `{error, code, message, statusCode}` echoing the path, not the API's error shape.
    // No hook runs for them, so the headers every other answer gets from its hooks are set here:
    // the security headers of the addresses they resemble (under /ui/: the pages') and the id.
    frameworkErrors: (error, request, reply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const server = request.server as FastifyInstance;
      // Typed for a route whose reply schema is unknown here; at run time a plain reply.
      void (reply as unknown as FastifyReply)
        .headers(server.securityHeadersFor?.(request.url) ?? {})
        .header('permissions-policy', PERMISSIONS_POLICY)
        .header(REQUEST_ID_HEADER, request.id)
        .status(tooLong ? 414 : 400)
        .send(errorBody(tooLong ? 'URL path parameter too long' : 'Malformed URL'));
    },
  };
  if (config.tls !== undefined) {
    options.https = {
      ...nodeOptions,
      cert: readTlsFile('TLS_CERT_FILE', config.tls.certFile),
      key: readTlsFile('TLS_KEY_FILE', config.tls.keyFile),
    };
  }
  return options;
}

/**
 * Node checks its headers and request timeouts only every `connectionsCheckingInterval` (30 s by
 * default), so a 10 s limit could let a slowloris connection live 40 s. A quarter of the headers
 * timeout (at most 5 s, at least 50 ms) keeps the overshoot small for the cost of a scan of the
 * open connections a few times a second at most.
 */
function nodeServerOptions(timeouts: ServerTimeouts): NodeHttpOptions {
  return {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    connectionsCheckingInterval: Math.min(5000, Math.max(50, Math.floor(timeouts.headersMs / 4))),
  };
}

/** Status and message for what Node's HTTP parser refuses, by Node's error code. */
function clientErrorAnswer(code: string | undefined): { status: number; message: string } {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'Request not received in time' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'Request headers too large' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'Request body too large' };
    case 'HPE_INVALID_URL':
      // A byte beyond ASCII sent unencoded (curl sends `?hostname=é` as the bytes C3 A9): Node's
      // parser refuses it whatever it is, so no such text, UTF-8 or Latin-1, reaches a filter.
      return {
        status: 400,
        message: 'Malformed URL: characters beyond printable ASCII must be percent-encoded (UTF-8)',
      };
    default:
      return { status: 400, message: 'Malformed HTTP request' };
  }
}

/**
 * Requests Node's HTTP parser refuses (garbage bytes, a control character in a header, headers
 * over Node's 16 KiB, a client too slow for the timeouts) never reach Fastify's routes, hooks or
 * error handler, and Fastify's default answer is `{error, message: "Client Error", statusCode}`.
 * They get the API's error shape here, and the connection is closed: the parser cannot tell where
 * a next request would start. Nothing is written when the peer is gone or when a response on this
 * socket has already begun (raw bytes would corrupt it).
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  const busy = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code !== 'ECONNRESET' && socket.writable && !busy?.headersSent) {
    const { status, message } = clientErrorAnswer(error.code);
    const body = JSON.stringify(errorBody(message));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy();
}

function readTlsFile(variable: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new Error(`${variable}: cannot read ${path}: ${(error as Error).message}`);
  }
}
