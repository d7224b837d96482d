import fastifyCors from '@fastify/cors';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';

export interface CorsOptions {
  /** Exact origins (scheme://host[:port]) browsers may call from, as config.ts normalises them. */
  origins: readonly string[];
}

export const ORIGIN_NOT_ALLOWED = 'Forbidden: Origin not allowed';

/** Response headers a browser script on an allowed origin may read. */
const EXPOSED_HEADERS = [
  'x-request-id',
  'x-response-time',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  // A record's version, for If-Match and If-None-Match.
  'etag',
];

/**
 * CORS headers for allowed origins, with credentials, and preflights answered (204, cached by the
 * browser for 10 minutes). Registered before the rate limit so that a 429 sent to an allowed
 * origin still carries Access-Control-Allow-Origin and the browser lets the script see it; so
 * preflights from allowed origins are answered before the rate limit and do not use the budget.
 * Refusing other origins is `originGuard`'s job, after the rate limit.
 */
export const corsHeaders = fp<CorsOptions>(
  async (app, options) => {
    const allowed = new Set(options.origins);
    await app.register(fastifyCors, {
      origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
      // A stray OPTIONS without Access-Control-Request-Method gets the API's own JSON 404
      // instead of the plugin's plain-text 400.
      strictPreflight: false,
    });
  },
  { name: 'inventory-protections/cors', fastify: '5.x' },
);

/**
 * 403 for a request whose Origin is neither allowed nor the API's own (browsers send Origin on
 * same-origin POSTs too, e.g. from the Swagger UI at /docs). Requests without Origin pass: they
 * come from the same origin or from non-browser clients, which CORS does not concern.
 */
export const originGuard = fp<CorsOptions>(
  async (app, options) => {
    const allowed = new Set(options.origins);
    app.addHook('onRequest', (request, _reply, done) => {
      const origin = request.headers.origin;
      if (origin === undefined || allowed.has(origin) || origin === ownOrigin(request)) {
        done();
      } else {
        done(new ApiError(403, ORIGIN_NOT_ALLOWED));
      }
    });
  },
  { name: 'inventory-protections/origin-guard', fastify: '5.x' },
);

/** scheme://host[:port] the request was sent to (through trusted proxies' headers if any). */
const ownOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
