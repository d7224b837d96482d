import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

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

/** The helmet options of every route that does not set its own (see `helmet` below). */
const API_HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: API_CONTENT_SECURITY_POLICY,
  crossOriginEmbedderPolicy: { policy: 'require-corp' },
  crossOriginOpenerPolicy: { policy: 'same-origin' },
  crossOriginResourcePolicy: { policy: 'same-origin' },
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
};

declare module 'fastify' {
  interface RouteShorthandOptions {
    /** This route's own helmet options, over the API's (a page's looser policy); false: none. */
    helmet?: HelmetOptions | false;
  }
  interface FastifyContextConfig {
    /** The headers computed from the route's `helmet` option, once, when it was registered. */
    securityHeaders?: Readonly<Record<string, string>>;
  }
  interface FastifyInstance {
    /**
     * The security headers of an address no route could be matched to (a URL the router cannot
     * decode): those of the routes whose fixed start it shares, the longest such start winning
     * (`/ui/…`: the pages' own), else the API's.
     */
    securityHeadersFor(url: string): Readonly<Record<string, string>>;
  }
}

/**
 * The headers helmet sets with `options`. With plain-string directives (no function of the
 * request) they are the same for every response, so they are computed once; `@fastify/helmet`
 * builds helmet's middleware again on every request (its directives parsed each time), a
 * measurable share of a cached list's CPU time.
 */
export function helmetHeaders(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, collector as unknown as ServerResponse, (error) => {
    failure = error;
  });
  if (failure !== undefined) throw failure;
  return Object.freeze(headers);
}

/**
 * A route's headers from its `helmet` option: the API's, replaced one by one by the route's
 * (helmet's option types forbid some pairs, such as xFrameOptions with its alias frameguard,
 * which TypeScript cannot see in a spread); none with `false`.
 */
export function routeSecurityHeaders(
  options: HelmetOptions | false,
): Readonly<Record<string, string>> {
  return options === false
    ? {}
    : helmetHeaders({ ...API_HELMET_OPTIONS, ...options } as HelmetOptions);
}

/**
 * Helmet's headers, set in onRequest so that errors carry them too: CSP (above), HSTS (one year,
 * subdomains; browsers ignore it over plain HTTP), X-Frame-Options DENY, nosniff,
 * Cross-Origin-Opener/Embedder/Resource-Policy (same-origin / require-corp / same-origin: CORS
 * requests from allowed origins are not affected by CORP), Referrer-Policy
 * strict-origin-when-cross-origin. Helmet has no Permissions-Policy, hence the onSend hook.
 */
export const securityHeaders: FastifyPluginAsync = fp(
  async (app) => {
    const apiHeaders = helmetHeaders(API_HELMET_OPTIONS);
    /** Each route's fixed start (its URL up to the first parameter) and its headers. */
    const byStart: Array<{ start: string; headers: Readonly<Record<string, string>> }> = [];
    app.addHook('onRoute', (route) => {
      const start = route.url.split(/[:*]/)[0] ?? '';
      if (route.helmet === undefined) {
        byStart.push({ start, headers: apiHeaders });
        return;
      }
      const headers = routeSecurityHeaders(route.helmet);
      byStart.push({ start, headers });
      route.config = { ...route.config, securityHeaders: headers };
    });
    app.decorate('securityHeadersFor', (url: string) => {
      let chosen = { start: '', headers: apiHeaders };
      for (const route of byStart) {
        if (route.start.length > chosen.start.length && url.startsWith(route.start)) chosen = route;
      }
      return chosen.headers;
    });
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(request.routeOptions.config.securityHeaders ?? apiHeaders);
      done();
    });
    app.addHook('onSend', (_request, reply, payload, done) => {
      reply.header('permissions-policy', PERMISSIONS_POLICY);
      done(null, payload);
    });
  },
  { name: 'inventory-protections/security-headers', fastify: '5.x' },
);
