import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

export const RESPONSE_TIME_HEADER = 'x-response-time';

/**
 * `X-Response-Time: 12.345ms` on every response. Fastify's `reply.elapsedTime` counts from the
 * moment the request entered Fastify (just before the onRequest hooks) to now; onSend is the last
 * point at which headers can still change, so the figure covers routing, hooks, handler and
 * serialisation.
 */
export const responseTime: FastifyPluginAsync = fp(
  async (app) => {
    app.addHook('onSend', (_request, reply, payload, done) => {
      reply.header(RESPONSE_TIME_HEADER, `${reply.elapsedTime.toFixed(3)}ms`);
      done(null, payload);
    });
  },
  { name: 'inventory-protections/response-time', fastify: '5.x' },
);
