import fastifyHelmet from '@fastify/helmet';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The API serves JSON only, so its content security policy allows nothing at all: no scripts,
 * styles, frames or form targets. A route that serves a page (the Swagger UI at /docs) loosens
 * it for itself: either `@fastify/swagger-ui` with `staticCSP: true` (its own policy replaces this
 * header on its routes), or any route's option `helmet: { contentSecurityPolicy: { directives } }`.
 */
export const API_CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'none'"],
    frameAncestors: ["'none'"],
  },
};

/** Browser features the API never needs, refused to any page that embeds or links it. */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=()';

/**
 * Helmet's headers, set in onRequest so that errors carry them too: CSP (above), HSTS (one year,
 * subdomains; browsers ignore it over plain HTTP), X-Frame-Options DENY, nosniff,
 * Cross-Origin-Opener/Embedder/Resource-Policy (same-origin / require-corp / same-origin: CORS
 * requests from allowed origins are not affected by CORP), Referrer-Policy
 * strict-origin-when-cross-origin. Helmet has no Permissions-Policy, hence the onSend hook.
 */
export const securityHeaders: FastifyPluginAsync = fp(
  async (app) => {
    await app.register(fastifyHelmet, {
      contentSecurityPolicy: API_CONTENT_SECURITY_POLICY,
      crossOriginEmbedderPolicy: { policy: 'require-corp' },
      crossOriginOpenerPolicy: { policy: 'same-origin' },
      crossOriginResourcePolicy: { policy: 'same-origin' },
      strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
      xFrameOptions: { action: 'deny' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    });
    app.addHook('onSend', (_request, reply, payload, done) => {
      reply.header('permissions-policy', PERMISSIONS_POLICY);
      done(null, payload);
    });
  },
  { name: 'inventory-protections/security-headers', fastify: '5.x' },
);
