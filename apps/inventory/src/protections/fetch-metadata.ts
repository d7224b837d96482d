import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';

export const CROSS_SITE_REQUEST_BLOCKED = 'Forbidden: Cross-site request blocked';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Fetch metadata: browsers say where a request comes from in Sec-Fetch-Site. A state-changing
 * request sent by another site (a form post, an <img>, a fetch from a page elsewhere) is refused
 * with 403 whatever its credentials, which stops cross-site request forgery with the cookie.
 * `same-site` passes: the default allowed origins (localhost on other ports) are same-site.
 * Clients that send no Sec-Fetch-Site (older browsers, curl, services) are not affected.
 */
export const fetchMetadata: FastifyPluginAsync = fp(
  async (app) => {
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.headers['sec-fetch-site'] === 'cross-site' && !SAFE_METHODS.has(request.method)) {
        done(new ApiError(403, CROSS_SITE_REQUEST_BLOCKED));
      } else {
        done();
      }
    });
  },
  { name: 'inventory-protections/fetch-metadata', fastify: '5.x' },
);
