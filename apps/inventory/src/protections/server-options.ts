import { readFileSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import type { ServerOptions as HttpsServerOptions } from 'node:https';
import type { FastifyHttpOptions } from 'fastify';
import type { ProtectionsConfig } from './config.js';
import { requestIdFor } from './request-id.js';

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
  config: Pick<ProtectionsConfig, 'bodyLimit' | 'trustProxy' | 'tls'>,
): ProtectionsServerOptions {
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
  };
  if (config.tls !== undefined) {
    options.https = {
      cert: readTlsFile('TLS_CERT_FILE', config.tls.certFile),
      key: readTlsFile('TLS_KEY_FILE', config.tls.keyFile),
    };
  }
  return options;
}

function readTlsFile(variable: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new Error(`${variable}: cannot read ${path}: ${(error as Error).message}`);
  }
}
