import type { AddressInfo } from 'node:net';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { ApiError, errorBody } from '../../src/errors.js';
import {
  fastifyServerOptions,
  type ProtectionsOptions,
  protections,
  readProtectionsConfig,
} from '../../src/protections/index.js';

/** The core's wording for Fastify's own client errors that these tests meet (src/http/error-handler.ts). */
const FASTIFY_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body too large',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON body',
};

/**
 * Renders errors the way the core's single error handler does: ApiError with its status and
 * headers, Fastify's own client errors (413, 415, malformed JSON...) with their status and
 * message, anything else as a 500 that names nothing internal. A stand-in, so that these tests
 * run without the core.
 */
export function renderErrorsLikeTheCore(app: FastifyInstance): void {
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof ApiError) {
      return reply.code(error.statusCode).headers(error.headers).send(errorBody(error.message));
    }
    const {
      statusCode: status,
      code,
      message,
    } = error as { statusCode?: number; code?: string; message: string };
    if (status !== undefined && status >= 400 && status < 500) {
      return reply.code(status).send(errorBody((code && FASTIFY_CLIENT_ERRORS[code]) || message));
    }
    reply.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send(errorBody('Internal Server Error'));
  });
  app.setNotFoundHandler(() => {
    throw new ApiError(404, 'Route not found');
  });
}

export interface TestAppOptions {
  /** Environment given to readProtectionsConfig (defaults apply to what is missing). */
  env?: Record<string, string>;
  /** Plugin options on top of the config read from `env`. */
  plugin?: ProtectionsOptions;
  /** Extra Fastify constructor options (e.g. a logger). */
  server?: FastifyServerOptions;
  /** Extra routes of the test. */
  routes?: (app: FastifyInstance) => void;
}

/** A small page of JSON, over the compression threshold. */
export const LARGE_PAYLOAD = {
  items: Array.from({ length: 100 }, (_, i) => ({ id: i, name: `item ${i}` })),
};

/**
 * An app built the way the core builds its own: server options from the config, the error
 * handler, the protections plugin before any route, then a few routes that exercise it.
 */
export async function buildTestApp(options: TestAppOptions = {}): Promise<FastifyInstance> {
  const config = readProtectionsConfig(options.env ?? {});
  // Built as the core builds its app (TypeBox provider), so the typecheck covers that pairing.
  const app = Fastify({
    ...fastifyServerOptions(config),
    ...options.server,
  }).withTypeProvider<TypeBoxTypeProvider>();
  renderErrorsLikeTheCore(app);
  await app.register(protections, { ...config, ...options.plugin });
  app.get('/hello', async () => ({ hello: 'world' }));
  app.get('/whoami', async (request) => ({ ip: request.ip, id: request.id }));
  app.get('/large', async () => LARGE_PAYLOAD);
  app.get('/search', async (request) => ({ query: request.query }));
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
    app.route({
      method,
      url: '/echo',
      // Any body (an empty schema): routes without a body schema refuse bodies.
      schema: { body: {} },
      handler: async (request) => ({ body: request.body ?? null }),
    });
  }
  app.get('/fail', async () => {
    throw new ApiError(409, 'Conflict for the test');
  });
  options.routes?.(app);
  await app.ready();
  return app;
}

/** Listens on a free loopback port and returns it. */
export async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
}
