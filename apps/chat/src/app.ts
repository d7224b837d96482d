import fastifyCors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import { type TypeBoxTypeProvider, TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import { addressBucket } from '@netops/service-runtime';
import type { Store, Subscription } from '@netops/store';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import type { Redis } from 'ioredis';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { installGuard } from './auth/guard.js';
import { Lockout, MemoryFailureStore, RedisFailureStore } from './auth/lockout.js';
import { SecretBox, TwoFactor } from './auth/totp.js';
import type { AppConfig } from './config.js';
import type { ChatContext } from './context.js';
import type { Database } from './db/schema.js';
import { SESSION_CHANGES_CHANNEL, SessionCache } from './db/session-cache.js';
import { SessionRepository } from './db/sessions.js';
import { PendingCredentials, purgeExpired, UsedIdTokens } from './db/single-use.js';
import { clientErrorHandler, frameworkErrors, installErrorHandler } from './error-handler.js';
import { ChatError, invalidRequest } from './errors.js';
import { openApi } from './openapi.js';
import { ProviderHttp } from './providers/http.js';
import { ID_TOKEN_MAX_AGE_DEFAULT_SECONDS } from './providers/id-token.js';
import { buildRegistry } from './providers/registry.js';
import avatarRoute from './routes/avatar.js';
import loginRoute from './routes/login.js';
import oauthRedirectRoutes from './routes/oauth-redirect.js';
import publicRoutes, { ROCKETCHAT_COMPATIBLE_VERSION } from './routes/public.js';
import sessionRoutes from './routes/session.js';
import sessionManagementRoutes from './routes/session-management.js';
import twoFactorRoutes from './routes/two-factor.js';
import { rootPathOf } from './ui/oauth-result.js';
import { UserDirectory } from './users/directory.js';

export interface AppDependencies {
  store: Store<Database>;
  /** The fetch providers are called with; the global one by default. */
  fetch?: typeof fetch;
  /** Shared rate-limit and lock-out counters for several instances; memory when absent. */
  redis?: Redis;
  /** The clock for sessions and lock-outs (tests move it). */
  now?: () => Date;
  logger?: FastifyServerOptions['logger'];
  /** Sessions kept between checks (see SessionCache); `false`: every check reads the database. */
  sessionCache?: { maxEntries: number; maxAgeMs: number } | false;
}

/** Default bounds of the session cache (SESSION_CACHE). */
export const SESSION_CACHE_DEFAULTS = { maxEntries: 50_000, maxAgeMs: 60_000 };
/** How often a session cache whose subscription could not be made at start tries again. */
const SUBSCRIBE_RETRY_MS = 5_000;

/**
 * One log line per request instead of Fastify's two ("incoming request", then "request
 * completed"): the completed line carries the request too. Half the log writes, measured as a
 * share of a `GET /api/v1/me` in the benchmark (README, "Benchmark").
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const fields = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else reply.log.info(fields, 'request completed');
  }
}

/** Request headers a browser script may send cross-origin: Rocket.Chat's, and its 2FA pair. */
const CORS_ALLOWED_HEADERS = [
  'Accept',
  'Content-Type',
  'Origin',
  'X-Requested-With',
  'X-User-Id',
  'X-Auth-Token',
  'X-2FA-Code',
  'X-2FA-Method',
];
/** Response headers such a script may read (when to retry after a 429). */
const CORS_EXPOSED_HEADERS = [
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

/** The chat login service, ready to `listen` or `inject`; it does not listen itself. */
export async function buildApp(
  config: AppConfig,
  dependencies: AppDependencies,
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: dependencies.logger ?? false,
    logController: new OneLinePerRequest(),
    // Only the proxies TRUST_PROXY names are believed (see TrustProxySetting).
    trustProxy: config.trustProxy === false ? false : [...config.trustProxy],
    bodyLimit: 64 * 1024,
    // Deliberate timeouts against slow clients: whole request 30 s, idle keep-alive 5 s.
    requestTimeout: 30_000,
    keepAliveTimeout: 5_000,
    clientErrorHandler,
    frameworkErrors: frameworkErrors(rootPathOf(config.siteUrl)),
  }).withTypeProvider<TypeBoxTypeProvider>();

  // TypeBox validates bodies without coercion: "200" is not the integer 200 here.
  app.setValidatorCompiler(TypeBoxValidatorCompiler);

  // An empty body with a JSON content type is no body: Rocket.Chat's clients send one on every
  // POST without parameters (api-client's post('/v1/logout')). Fastify's own parser (with its
  // prototype-poisoning protection) parses everything else; a route that needs a body says so below.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // Fastify parses text/plain by default; every body here is JSON, so any other type is a 415.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
  // A route whose body schema accepts null (users.logout: no body means the caller) gets null;
  // any other route with a body schema needs one.
  app.addHook('preValidation', async (request) => {
    const schema = request.routeOptions.schema?.body as TSchema | undefined;
    if (request.body !== undefined || !schema) return;
    if (!Value.Check(schema, null)) throw invalidRequest('The body is empty');
    request.body = null;
  });

  installErrorHandler(app);

  const now = dependencies.now ?? (() => new Date());
  const { store, redis } = dependencies;
  const policy = config.lockout;
  const failures = redis
    ? new RedisFailureStore(redis, policy)
    : new MemoryFailureStore(policy, () => now().getTime());

  const sessionCache =
    dependencies.sessionCache === false || config.sessionCache === false
      ? undefined
      : new SessionCache(dependencies.sessionCache ?? SESSION_CACHE_DEFAULTS);
  if (sessionCache) await subscribeSessionCache(app, store, sessionCache);

  // First, so that every answer to an allowed origin (errors and 429s included) carries the header.
  await app.register(fastifyCors, {
    origin: (origin, callback) =>
      callback(null, origin !== undefined && config.corsOrigins.includes(origin)),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
    // A stray OPTIONS without Access-Control-Request-Method gets the service's JSON 404.
    strictPreflight: false,
  });
  const context: ChatContext = {
    config,
    services: buildRegistry(
      config.services,
      new ProviderHttp({
        maxBytes: config.provider.maxBytes,
        ...(dependencies.fetch ? { fetch: dependencies.fetch } : {}),
      }),
      { idTokenMaxAgeSeconds: config.idTokenMaxAgeSeconds ?? ID_TOKEN_MAX_AGE_DEFAULT_SECONDS },
    ),
    users: new UserDirectory(store.db, config.reservedUsernames),
    sessions: new SessionRepository(store.db, sessionCache),
    // With Redis, this instance's memory counts while Redis fails: a second factor or a token is
    // never open to unlimited guessing because Redis is down.
    lockout: new Lockout(
      failures,
      policy,
      (error) =>
        app.log.warn(
          { err: error },
          redis
            ? "lock-out store unavailable; counting in this instance's memory"
            : 'lock-out store unavailable; not counting',
        ),
      redis ? new MemoryFailureStore(policy, () => now().getTime()) : undefined,
    ),
    now,
  };
  // Before the routes: the document is made from every route registered after it. Before the
  // guard too: its own pages (public and static) keep out of the guard's default rate limit.
  await app.register(openApi, { rootUrl: config.siteUrl, version: ROCKETCHAT_COMPATIBLE_VERSION });
  // Before the rate-limit plugin: the guard gives each route that needs a session its limit.
  installGuard(app, context);

  await app.register(rateLimit, {
    global: false,
    // The client as the lock-out counts it: an IPv6 address by its /64 (a host commonly holds a
    // whole /64), an IPv4-mapped one as IPv4; `request.ip` is X-Forwarded-For's client only
    // from the proxies TRUST_PROXY names. For every limit below (routes inherit it).
    keyGenerator: (request) => addressBucket(request.ip),
    ...(redis ? { redis, nameSpace: 'chat-login-rate:' } : {}),
    // An unreachable Redis lets logins through rather than failing them all.
    skipOnError: true,
    errorResponseBuilder: (_request, limit) =>
      new ChatError(
        429,
        'too-many-requests',
        `Too many requests from this address; try again in ${Math.ceil(limit.ttl / 1000)} seconds`,
      ),
  });
  const twoFactor = new TwoFactor(
    store.db,
    config.twoFactorKey ? new SecretBox(config.twoFactorKey) : undefined,
    context.lockout,
    new URL(config.siteUrl).host,
    now,
  );
  const pendingCredentials = new PendingCredentials(store.db);
  await app.register(loginRoute, {
    context,
    twoFactor,
    usedIdTokens: new UsedIdTokens(store.db),
    pendingCredentials,
  });
  await app.register(oauthRedirectRoutes, { context, pendingCredentials });
  await app.register(sessionRoutes, { context });
  await app.register(twoFactorRoutes, { context, twoFactor });
  await app.register(sessionManagementRoutes, { context });
  await app.register(publicRoutes, { context });
  await app.register(avatarRoute, { context });
  app.get('/health', { config: { auth: 'public' } }, async () => ({ status: 'ok' }));
  purgeExpiredPeriodically(app, store, now);
  return app;
}

/** How often expired single-use records (used ID tokens, pending OAuth credentials) are purged. */
const PURGE_INTERVAL_MS = 60_000;

function purgeExpiredPeriodically(
  app: FastifyInstance,
  store: Store<Database>,
  now: () => Date,
): void {
  const timer = setInterval(() => {
    purgeExpired(store.db, now()).catch((error: unknown) =>
      app.log.warn({ err: error }, 'purging expired single-use records failed'),
    );
  }, PURGE_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

/**
 * Keeps the session cache fed by the database's notifications of session and user changes
 * (migration 004), and closes the subscription with the app. Without a subscription the cache
 * stays off (every check reads the database); one that cannot be made at start (the database is
 * down) is tried again every SUBSCRIBE_RETRY_MS.
 */
async function subscribeSessionCache(
  app: FastifyInstance,
  store: Store<Database>,
  cache: SessionCache,
): Promise<void> {
  let subscription: Subscription | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;
  const subscribe = async () => {
    try {
      subscription = await store.listen(SESSION_CHANGES_CHANNEL, {
        notification: (payload) => cache.notified(payload),
        listening: () => cache.listening(),
        lost: (error) => {
          cache.lost();
          app.log.warn({ err: error }, 'session change notifications lost; session cache off');
        },
      });
      if (closed) await subscription.close();
    } catch (error) {
      app.log.warn({ err: error }, 'session change notifications unavailable; session cache off');
      if (closed) return;
      retry = setTimeout(() => void subscribe(), SUBSCRIBE_RETRY_MS);
      retry.unref();
    }
  };
  await subscribe();
  app.addHook('onClose', async () => {
    closed = true;
    clearTimeout(retry);
    cache.lost();
    await subscription?.close();
  });
}
