import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';

export const BODY_NOT_TAKEN = 'This route takes no request body';

/**
 * Largest body a route open to anyone (`config: { access: 'public' }`: login, password reset)
 * accepts, unless it sets its own `bodyLimit`: what those routes take (a name, an e-mail, two
 * passwords of at most 1,024 characters, even written as `\uXXXX` escapes) fits many times over,
 * and nobody can make the service parse a megabyte before signing in.
 */
export const PUBLIC_BODY_LIMIT = 16 * 1024;

/** Whether the request announces a body (RFC 9112 §6.3: a length above 0, or chunks). */
function announcesBody(request: FastifyRequest): boolean {
  const { 'content-length': length, 'transfer-encoding': encoding } = request.headers;
  return encoding !== undefined || (length !== undefined && length !== '0');
}

/**
 * Bodies are read only where a route takes one (a 1 MB body sent to
 * `POST /users/logout` or to an unknown URL was parsed and checked before anything refused it):
 *
 * - an unknown URL gets its usual 404 (or 405) without its body being read: the body headers are
 *   taken off the request so that Fastify skips parsing, and Node discards the unread bytes
 *   (the connection stays usable);
 * - a route that declares no body schema answers 400 `This route takes no request body`, before
 *   parsing, as an unknown body field gets 400 everywhere else;
 * - public routes read at most PUBLIC_BODY_LIMIT bytes (413 beyond).
 *
 * GET and HEAD bodies are never parsed by Fastify; they are refused like any other on a route
 * that takes none.
 */
export const requestBodyRules: FastifyPluginAsync = fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      const open = (route.config as { access?: string } | undefined)?.access === 'public';
      if (open && route.schema?.body !== undefined && route.bodyLimit === undefined) {
        route.bodyLimit = PUBLIC_BODY_LIMIT;
      }
    });
    // preParsing: after every onRequest hook (a caller without a valid token still gets 401
    // first), before anything reads the body.
    app.addHook('preParsing', (request, _reply, payload, done) => {
      if (!announcesBody(request)) return done(null, payload);
      if (request.is404) {
        // What the not-found handler answers does not depend on the body; nothing reads it.
        const headers = request.raw.headers;
        delete headers['content-type'];
        delete headers['content-length'];
        delete headers['transfer-encoding'];
        return done(null, payload);
      }
      if (request.routeOptions.schema?.body === undefined) {
        return done(new ApiError(400, BODY_NOT_TAKEN));
      }
      done(null, payload);
    });
  },
  { name: 'inventory-protections/request-body', fastify: '5.x' },
);
