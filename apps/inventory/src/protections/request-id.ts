import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What a caller may choose as its request id: short, and free of anything that could forge log
 * lines or headers (no spaces, quotes, newlines or control characters).
 */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's `genReqId`: keeps a well-formed incoming X-Request-Id (so a caller can follow one id
 * through several services) and makes a fresh UUID otherwise. Fastify's own `requestIdHeader`
 * would take any header value as it is, so the server options turn it off in favour of this.
 */
export function requestIdFor(raw: IncomingMessage): string {
  const incoming = raw.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && WELL_FORMED_REQUEST_ID.test(incoming)
    ? incoming
    : randomUUID();
}

/**
 * Echoes the id in the response. Set in onRequest so that every response, errors included,
 * carries it; pino logs it as `reqId` on every line of the request.
 */
export const requestIdHeader: FastifyPluginAsync = fp(
  async (app) => {
    app.addHook('onRequest', async (request, reply) => {
      reply.header(REQUEST_ID_HEADER, request.id);
    });
  },
  { name: 'inventory-protections/request-id', fastify: '5.x' },
);

/** Who asked, as audit rows record it: the request id and the client address used for limits. */
export interface RequestTrace {
  requestId: string;
  clientIp: string;
}

export const requestTraceOf = (request: FastifyRequest): RequestTrace => ({
  requestId: request.id,
  clientIp: request.ip,
});
