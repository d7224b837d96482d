import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { compression } from './compression.js';
import { DEFAULT_CORS_ORIGINS, PROTECTIONS_DEFAULTS } from './config.js';
import { contentCheck } from './content-check.js';
import { corsHeaders, originGuard } from './cors.js';
import { fetchMetadata } from './fetch-metadata.js';
import { type AllowedHosts, DEFAULT_ALLOWED_HOSTS, hostGuard } from './host-guard.js';
import { httpVersionGuard } from './http-version.js';
import { rateLimiting } from './rate-limit.js';
import { requestBodyRules } from './request-body.js';
import { requestIdHeader } from './request-id.js';
import { responseTime } from './response-time.js';
import { securityHeaders } from './security-headers.js';

/**
 * What the plugin takes: the core passes its `config.protections` (a ProtectionsConfig, whose
 * server-level parts are used by fastifyServerOptions instead), plus run-time objects.
 * Missing values take the documented defaults.
 */
export interface ProtectionsOptions {
  rateLimitMax?: number;
  rateLimitWindowMs?: number;
  redisUrl?: string | undefined;
  corsOrigins?: readonly string[];
  /** Host names served besides IP literals and localhost (ALLOWED_HOSTS). */
  allowedHosts?: AllowedHosts;
  /** A Redis client for the rate-limit counters, owned (and closed) by the caller. */
  redis?: Redis | undefined;
  /** Redis key prefix of the counters (instances sharing a budget must agree). */
  rateLimitKeyPrefix?: string | undefined;
  /** Smallest response body, in bytes, worth compressing. */
  compressionThreshold?: number | undefined;
}

/**
 * Every cross-cutting protection, applied app-wide (fastify-plugin) through hooks. Register it
 * before any route. The order is deliberate:
 * onRequest: request id header -> security headers -> CORS headers and preflight answers -> rate
 * limit -> HTTP version (400 for HTTP/0.9) -> host guard (421) -> origin guard (403) -> fetch
 * metadata (403); preParsing: bodies where none is taken (400; unknown routes skip reading
 * theirs); preValidation: content check (400);
 * onSend: X-Response-Time, Permissions-Policy, compression.
 * Security headers come first so that every refusal carries them; the rate limit comes before the
 * refusals so that they count and carry X-RateLimit-*.
 */
export const protections = fp<ProtectionsOptions>(
  async (app, options) => {
    const corsOrigins = options.corsOrigins ?? DEFAULT_CORS_ORIGINS;
    await app.register(requestIdHeader);
    await app.register(responseTime);
    await app.register(securityHeaders);
    await app.register(corsHeaders, { origins: corsOrigins });
    await app.register(rateLimiting, {
      max: options.rateLimitMax ?? PROTECTIONS_DEFAULTS.rateLimitMax,
      windowMs: options.rateLimitWindowMs ?? PROTECTIONS_DEFAULTS.rateLimitWindowMs,
      redis: options.redis,
      redisUrl: options.redisUrl,
      keyPrefix: options.rateLimitKeyPrefix,
    });
    await app.register(httpVersionGuard);
    await app.register(hostGuard, { allowed: options.allowedHosts ?? DEFAULT_ALLOWED_HOSTS });
    await app.register(originGuard, { origins: corsOrigins });
    await app.register(fetchMetadata);
    await app.register(requestBodyRules);
    await app.register(contentCheck);
    await app.register(compression, { threshold: options.compressionThreshold });
  },
  { name: 'inventory-protections', fastify: '5.x' },
);

export { compression } from './compression.js';
export * from './config.js';
export {
  contentCheck,
  findMarkup,
  formatPath,
  holdsMarkup,
  holdsRefusedText,
} from './content-check.js';
export { corsHeaders, ORIGIN_NOT_ALLOWED, originGuard } from './cors.js';
export { CROSS_SITE_REQUEST_BLOCKED, fetchMetadata } from './fetch-metadata.js';
export {
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  type GracefulShutdownOptions,
  installGracefulShutdown,
} from './graceful-shutdown.js';
export {
  type AllowedHosts,
  HOST_NOT_ALLOWED,
  hostGuard,
  isHostAllowed,
  parseHost,
} from './host-guard.js';
export { DEFAULT_LOGIN_LOCKOUT, type LoginLockoutPolicy } from './login-lockout-policy.js';
export {
  connectRedis,
  RedisConnectError,
  rateLimiting,
  TOO_MANY_REQUESTS,
} from './rate-limit.js';
export { BODY_NOT_TAKEN, PUBLIC_BODY_LIMIT, requestBodyRules } from './request-body.js';
export {
  REQUEST_ID_HEADER,
  type RequestTrace,
  requestIdFor,
  requestIdHeader,
  requestTraceOf,
} from './request-id.js';
export { RESPONSE_TIME_HEADER, responseTime } from './response-time.js';
export {
  API_CONTENT_SECURITY_POLICY,
  PERMISSIONS_POLICY,
  securityHeaders,
} from './security-headers.js';
export { fastifyServerOptions, type ProtectionsServerOptions } from './server-options.js';
