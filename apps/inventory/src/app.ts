import { join } from 'node:path';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from '@netops/store';
import Fastify, { type FastifyInstance } from 'fastify';
import { auditRoutes } from './audit/routes.js';
import { ApiTokenService } from './auth/api-tokens.js';
import { apiTokenRoutes, apiTokens } from './auth/api-tokens-routes.js';
import { authGuard } from './auth/guard.js';
import { type LoginLockout, MemoryLoginLockout, RedisLoginLockout } from './auth/login-lockout.js';
import { PasswordHasher } from './auth/passwords.js';
import { authRoutes } from './auth/routes.js';
import { TokenService } from './auth/tokens.js';
import { USER_CHANGES_CHANNEL, UserCache } from './auth/user-cache.js';
import { findUserForRequest } from './auth/users.js';
import type { Config } from './config.js';
import type { Database } from './db/schema.js';
import { events } from './events/definition.js';
import { installErrorHandler } from './http/error-handler.js';
import { healthRoutes } from './http/health.js';
import { openApi } from './http/openapi.js';
import { installRouting, type RouteEntry } from './http/routing.js';
import { serializerCompiler } from './http/serialization.js';
import { utf8Body } from './http/text-encoding.js';
import { createValidatorCompiler } from './http/validation.js';
import { createMailer } from './mail/mailer.js';
import { METRIC_CONSTRAINT_MESSAGES, metricRoutes } from './metrics/routes.js';
import { connectRedis, fastifyServerOptions, protections } from './protections/index.js';
import { CursorCodec } from './resources/cursor.js';
import { constraintMessages, RESOURCES, registerResources } from './resources/index.js';
import { ListCache } from './resources/list-cache.js';
import { listCacheRoutes } from './resources/list-cache-routes.js';
import { resourceRoutes } from './resources/routes.js';
import { serviceRoutes } from './routes/service.js';
import { uiRoutes } from './ui/routes.js';
import { users } from './users/definition.js';
import { passwordResetRoutes } from './users/password-reset.js';
import { userRoutes } from './users/routes.js';
import { registerWebhooks, webhookServices } from './webhooks/index.js';

/** The configuration buildApp needs: the secret is resolved by then (see auth/secret.ts). */
export type AppConfig = Omit<
  Config,
  | 'jwtSecret'
  | 'host'
  | 'port'
  | 'seedPassword'
  | 'databaseTimeouts'
  | 'databasePoolSize'
  | 'databaseReadsBesideWrites'
> & {
  jwtSecret: string;
  /** Redis key prefix of the rate-limit counters (instances sharing a budget use the same). */
  rateLimitKeyPrefix?: string;
  /** Redis key prefix of the login lock-out's records (instances sharing them use the same). */
  loginLockoutKeyPrefix?: string;
};

export interface AppDependencies {
  store: Store<Database>;
  /** Where the log lines go (main.ts: a LogOutput that never blocks); stdout when absent. */
  logStream?: { write(line: string): boolean };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with its method and declared access, in registration order. */
    routeCatalogue: readonly RouteEntry[];
  }
}

/** Builds the API without listening: main.ts listens, tests inject or listen on port 0. */
export async function buildApp(
  config: AppConfig,
  { store, logStream }: AppDependencies,
): Promise<FastifyInstance> {
  const app = Fastify({
    // Body limit, trusted proxies (request.ip), request ids, HTTPS: server-level protections.
    ...fastifyServerOptions(config.protections),
    // NetBox clients end every URL with a slash: each route answers it as without one (the
    // router matched `/devices/` only, through the prefix, and `/devices/{id}/` was a 405).
    routerOptions: { ignoreTrailingSlash: true },
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      ...(logStream ? { stream: logStream } : {}),
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(createValidatorCompiler());
  app.setSerializerCompiler(serializerCompiler);

  // JSON is the only body this API reads; anything else is 415, not a string handed on.
  app.removeContentTypeParser('text/plain');
  // Fastify's JSON parser, on the body's bytes decoded strictly: bytes that are not UTF-8 (which
  // JSON must be, RFC 8259 §8.1) are 400, not text with U+FFFD in their place.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8Body(body as Buffer);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    parseJson(request, text, done);
  });

  installErrorHandler(app, {
    ...constraintMessages([...RESOURCES, users, events, apiTokens]),
    ...METRIC_CONSTRAINT_MESSAGES,
  });
  // Before every other hook and route, so that every answer (refusals, 404s) carries the
  // security headers, the request id and the rate-limit headers, and counts toward the limit.
  await app.register(protections, {
    ...config.protections,
    rateLimitKeyPrefix: config.rateLimitKeyPrefix,
  });
  const catalogue = installRouting(app);
  app.decorate('routeCatalogue', catalogue);
  app.decorate('listCursors', new CursorCodec(config.jwtSecret));
  // LIST_CACHE=off: a cache that keeps nothing (to measure the uncached path, or rule it out).
  app.decorate('listCache', new ListCache(config.listCache));

  const db = store.db;
  const tokens = new TokenService(config.jwtSecret, config.tokenTtlSeconds);
  const hasher = new PasswordHasher(config.passwordHashing);

  // Before the routes: the document is built from every route registered after it.
  await app.register(openApi);
  await app.register(cookie);
  const userCache = new UserCache((id) => findUserForRequest(db, id));
  userCache.attach(await store.listen(USER_CHANGES_CHANNEL, userCache.handlers));
  app.addHook('onClose', () => userCache.close());
  const apiTokenService = new ApiTokenService(db, config.jwtSecret);
  await app.register(authGuard, { users: userCache, tokens, apiTokens: apiTokenService });
  await app.register(serviceRoutes, { db });
  await app.register(listCacheRoutes);
  await app.register(healthRoutes, { db });
  await app.register(authRoutes, { db, hasher, tokens, lockout: await loginLockout(app, config) });
  await app.register(userRoutes, { db, hasher });
  await app.register(passwordResetRoutes, {
    db,
    hasher,
    mailer: createMailer({
      ...config.mail,
      outboxDir: join(config.dataDir, 'outbox'),
      // Every message is a reset code, worthless once expired.
      outboxRetentionSeconds: config.resetTtlSeconds,
    }),
    resetTtlSeconds: config.resetTtlSeconds,
  });
  const webhooks = webhookServices(config.webhooks, config.jwtSecret);
  await registerResources(app, db, webhooks);
  await registerWebhooks(app, {
    store,
    config: config.webhooks,
    services: webhooks,
  });
  await app.register(resourceRoutes, { prefix: '/events', definition: events, db });
  await app.register(metricRoutes, { db });
  await app.register(auditRoutes, { db });
  await app.register(apiTokenRoutes, { db, service: apiTokenService });
  // The web interface: pages over the routes above (ui/api.ts), under /ui/.
  await app.register(uiRoutes, {
    prefix: '/ui',
    db,
    tokens,
    users: userCache,
    secureCookies: config.protections.tls !== undefined,
    bodyLimit: config.bodyLimit,
  });
  return app;
}

/** Failed logins are counted in Redis when instances share one (REDIS_URL), else in memory. */
async function loginLockout(app: FastifyInstance, config: AppConfig): Promise<LoginLockout> {
  const policy = config.protections.loginLockout;
  const url = config.protections.redisUrl;
  if (url === undefined) return new MemoryLoginLockout(policy);
  const redis = await connectRedis(url, app.log, 'inventory-login-lockout');
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return new RedisLoginLockout(redis, policy, app.log, config.loginLockoutKeyPrefix);
}
