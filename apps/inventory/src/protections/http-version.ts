import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';

export const HTTP_VERSION_REQUIRED = 'Malformed HTTP request: HTTP/1.0 or later required';

/**
 * A request line without a version (`GET /path`, HTTP/0.9) gets 400. Node's parser accepts it
 * and would answer it as an HTTP/1.1 request. No client of an API speaks HTTP/0.9; such a line
 * is a probe, or garbage that happened to parse, and it carries no headers (no Host, no
 * Authorization) for the guards that follow to judge. The connection is closed after the answer,
 * as Node closes every HTTP/0.9 exchange.
 */
export const httpVersionGuard = fp(
  async (app) => {
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.raw.httpVersionMajor !== 0) done();
      else done(new ApiError(400, HTTP_VERSION_REQUIRED));
    });
  },
  { name: 'inventory-protections/http-version', fastify: '5.x' },
);
