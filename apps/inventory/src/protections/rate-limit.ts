import { randomBytes, timingSafeEqual } from 'node:crypto';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { ApiError } from '../errors.js';

export interface RateLimitingOptions {
  /** Requests per client IP and window; 0 registers nothing (no limit, no headers). */
  max: number;
  windowMs: number;
  /** A Redis client to keep counters in, shared with its owner (who closes it). */
  redis?: Redis | undefined;
  /** Otherwise a Redis URL: the plugin connects at start-up (failing loudly) and closes on close. */
  redisUrl?: string | undefined;
  /** Prefix of the counters' Redis keys; instances sharing a budget must use the same one. */
  keyPrefix?: string | undefined;
}

export const DEFAULT_RATE_LIMIT_KEY_PREFIX = 'inventory:rate-limit:';

/**
 * A call the web interface makes of the API for a page view or a form post it serves
 * (`inject`, inside the process): a page's reads, and a post's reads and write alike. The
 * page's or post's own request was counted, so these are not counted again. The header's value
 * is this process's secret, never sent out, so no client can claim it.
 */
export const PAGE_READ_HEADER = 'x-inventory-page-read';
export const PAGE_READ_TOKEN = randomBytes(32).toString('base64url');
const PAGE_READ = Buffer.from(PAGE_READ_TOKEN);

function isPageRead(request: FastifyRequest): boolean {
  const given = request.headers[PAGE_READ_HEADER];
  if (typeof given !== 'string') return false;
  const bytes = Buffer.from(given);
  return bytes.length === PAGE_READ.length && timingSafeEqual(bytes, PAGE_READ);
}
export const TOO_MANY_REQUESTS = 'Too many requests';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route counts its request itself (`countRequest`), once its body is read, so that a
     * request past the limit can be answered with what it sent (a form post of the web
     * interface): the app-wide hook leaves it alone.
     */
    countedByRoute?: boolean;
  }
  interface FastifyInstance {
    /**
     * Counts the request against its client's limit and sets the X-RateLimit-* headers; past the
     * limit, returns the 429 to answer (with Retry-After) instead of throwing it. Without a limit
     * (max 0), counts nothing.
     */
    countRequest(request: FastifyRequest, reply: FastifyReply): Promise<ApiError | undefined>;
  }
}

/**
 * A fixed window of `max` requests per client IP (`request.ip`, so TRUST_PROXY decides whether
 * X-Forwarded-For counts; IPv6 clients are grouped by /64). The check is one app-wide onRequest
 * hook rather than @fastify/rate-limit's per-route hooks (which miss the 404 handler), so that
 * every request, 404s and refusals and the 429 itself included, counts and carries
 * X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (seconds until the window
 * restarts). Not counted: the health probes, the interface's own calls of the API
 * (PAGE_READ_HEADER), and a route that counts its requests itself (countedByRoute) until its
 * handler counts it, so such a post refused before its handler runs (a body the schema
 * refuses, too large or of the wrong type, a cross-origin post) is not counted.
 *
 * With Redis the counters are shared by every instance using the same Redis and key prefix. If
 * Redis fails at run time, requests are let through unlimited rather than all answered 500 (the
 * limit protects the service, it must not take it down); a client made from REDIS_URL logs its
 * connection errors.
 */
export const rateLimiting = fp<RateLimitingOptions>(
  async (app, options) => {
    if (options.max === 0) {
      app.decorate('countRequest', async () => undefined);
      return;
    }
    let redis = options.redis;
    if (redis === undefined && options.redisUrl !== undefined) {
      const owned = await connectRedis(options.redisUrl, app.log);
      app.addHook('onClose', async () => {
        // quit() waits for pending replies; with Redis gone there are none to wait for.
        await owned.quit().catch(() => owned.disconnect());
      });
      redis = owned;
    }
    await app.register(fastifyRateLimit, {
      global: false,
      max: options.max,
      timeWindow: options.windowMs,
      redis,
      nameSpace: options.keyPrefix ?? DEFAULT_RATE_LIMIT_KEY_PREFIX,
      skipOnError: true,
      // Routes declaring `config: { rateLimit: false }` (the health probes) are not counted:
      // the plugin's own per-route switch, honoured by our app-wide hook too; nor are the reads
      // of a page that was counted itself (PAGE_READ_HEADER), nor a route that counts its
      // requests itself (countedByRoute, countRequest below).
      allowList: (request) =>
        request.routeOptions.config?.rateLimit === false ||
        (request.routeOptions.config?.countedByRoute === true && !countedNow.has(request)) ||
        isPageRead(request),
      errorResponseBuilder: (_request, context) =>
        new ApiError(429, TOO_MANY_REQUESTS, {
          'retry-after': String(Math.ceil(context.ttl / 1000)),
        }),
    });
    app.addHook('onRequest', app.rateLimit());
    // The same counters (a limiter given options of its own would keep others), for a route
    // that counts its request itself (countedByRoute): the request is marked while it is counted.
    const counted = app.createRateLimit();
    const countedNow = new WeakSet<FastifyRequest>();
    app.decorate('countRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      countedNow.add(request);
      const limit = await counted(request).finally(() => countedNow.delete(request));
      if (limit.isAllowed) return undefined;
      const reset = String(limit.ttlInSeconds);
      reply.header('x-ratelimit-limit', limit.max);
      reply.header('x-ratelimit-remaining', limit.remaining);
      reply.header('x-ratelimit-reset', reset);
      if (!limit.isExceeded) return undefined;
      return new ApiError(429, TOO_MANY_REQUESTS, { 'retry-after': reset });
    });
  },
  { name: 'inventory-protections/rate-limit', fastify: '5.x' },
);

/**
 * REDIS_URL named a Redis that could not be reached at start: the message says so in one line,
 * the URL's password masked, and the service prints it as a start refusal (no stack).
 */
export class RedisConnectError extends Error {
  override readonly name: string = 'RedisConnectError';
}

/**
 * Connects before the app is ready, so a wrong REDIS_URL stops the start instead of silently
 * leaving every instance with its own budget. Commands fail fast (no offline queue, 1 s timeout)
 * so that a Redis outage cannot stall requests.
 */
export async function connectRedis(
  url: string,
  log: FastifyBaseLogger,
  connectionName = 'inventory-rate-limit',
): Promise<Redis> {
  // ioredis is loaded only by a service given REDIS_URL: a few MB the others do not hold.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
    connectionName,
  });
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => {
    lastError = error;
    log.warn({ err: error }, `${connectionName}: Redis connection error`);
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    const reason = (lastError ?? (error as Error)).message;
    throw new RedisConnectError(
      `REDIS_URL: cannot connect to ${withoutCredentials(url)}: ${reason}`,
    );
  }
  return redis;
}

function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}
