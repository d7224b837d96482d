import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import type { Access } from '../auth/roles.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { percentEncodedUtf8 } from './text-encoding.js';

export interface RouteEntry {
  method: string;
  url: string;
  access: Access;
}

/**
 * Longest request target (path and query) served: Apache's default limit, near nginx's. A longer
 * one is 414 before anything reads it.
 */
export const MAX_URI_LENGTH = 8190;

/** Methods that change something: their routes take only the query parameters they declare. */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Query parameters that may legitimately repeat. */
const REPEATABLE_QUERY_PARAMETERS = new Set(['sortby', 'tags']);

/**
 * Routing concerns that no single route owns: the catalogue of routes (405 answers and the role
 * matrix test read it), 404 and 405 for paths and methods nobody serves, the rule that a
 * query parameter appears once, and that a write takes none it does not declare.
 */
export function installRouting(app: FastifyInstance): RouteEntry[] {
  const catalogue: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]) as HTTPMethods[];
    for (const method of methods) {
      catalogue.push({
        method,
        url: route.url,
        // Read when asked: a plugin's own onRoute hook (the public /docs) may still set it.
        get access() {
          return route.config?.access ?? 'authenticated';
        },
      });
    }
  });

  // Runs for every request, matched or not, before authentication: a malformed query is
  // malformed whoever sends it.
  app.addHook('onRequest', async (request) => {
    if (request.url.length > MAX_URI_LENGTH) {
      throw new ApiError(414, `URI too long: at most ${MAX_URI_LENGTH} characters`);
    }
    // A method no route serves is 405 before its body is read or parsed: `QUERY /devices` (a
    // method Node accepts) was answered by the content-type check with 400.
    if (request.routeOptions.url === undefined) {
      const path = request.url.split('?')[0] ?? '/';
      const allowed = allowedMethods(path);
      if (allowed.length > 0) throw methodNotAllowed(request.method, allowed);
    }
    refuseUnevaluatedPreconditions(request);
    const queryStart = request.url.indexOf('?');
    if (queryStart !== -1 && !percentEncodedUtf8(request.url.slice(queryStart + 1))) {
      throw badRequest('Malformed query string: percent-encoded bytes that are not UTF-8');
    }
    // A page passes its query on to the API, which refuses a repeated one there (see
    // `inputCheckedByApi`): the page shows why, with the user's input.
    if (request.routeOptions.config?.inputCheckedByApi) return;
    const query = request.query as Record<string, unknown>;
    for (const [name, value] of Object.entries(query)) {
      if (Array.isArray(value) && !REPEATABLE_QUERY_PARAMETERS.has(name)) {
        throw badRequest(`Duplicate query parameter forbidden: ${name}`);
      }
    }
  });

  // A write whose schema documents no query string takes none: `POST /devices?dry_run=true`
  // must not create what the client asked only to check. Reads refuse unknown parameters through
  // their query schemas; after authentication, as there. A page's form passes its input on to
  // the API, which decides (`inputCheckedByApi`).
  app.addHook('preValidation', async (request) => {
    if (!WRITE_METHODS.has(request.method)) return;
    if (request.routeOptions.schema?.querystring !== undefined) return;
    if (request.routeOptions.config?.inputCheckedByApi) return;
    const [unknown] = Object.keys(request.query as Record<string, unknown>);
    if (unknown !== undefined) throw badRequest(`Unknown query parameter: ${unknown}`);
  });

  let patterns: Array<{ regex: RegExp; methods: Set<string> }> | undefined;
  const allowedMethods = (path: string): string[] => {
    patterns ??= compilePatterns(catalogue);
    const methods = new Set<string>();
    for (const pattern of patterns) {
      if (pattern.regex.test(path)) for (const method of pattern.methods) methods.add(method);
    }
    return [...methods].sort();
  };

  app.setNotFoundHandler(async (request) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = allowedMethods(path);
    if (allowed.length > 0) throw methodNotAllowed(request.method, allowed);
    throw notFound(`Route ${request.method} ${path} not found`);
  });

  return catalogue;
}

const CONDITIONAL_HEADERS = [
  ['if-match', 'If-Match'],
  ['if-none-match', 'If-None-Match'],
] as const;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A write whose route does not declare a conditional header in its schema does not evaluate it:
 * 400 rather than a write made as if the client had not asked (RFC 9110 lets a server ignore
 * them; a client that sends one relies on it).
 */
function refuseUnevaluatedPreconditions(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  const declared = (request.routeOptions.schema?.headers as { properties?: object } | undefined)
    ?.properties;
  for (const [name, label] of CONDITIONAL_HEADERS) {
    if (request.headers[name] === undefined) continue;
    if (declared && Object.hasOwn(declared, name)) continue;
    const where = `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
    throw badRequest(
      `${label} is not evaluated by ${where}: send it only to a single record's PUT, PATCH or DELETE (a batch item carries its own "etag")`,
    );
  }
}

const methodNotAllowed = (method: string, allowed: readonly string[]) =>
  new ApiError(405, `Method ${method} not allowed`, { allow: allowed.join(', ') });

/** `/devices/:id/interfaces` -> a regex matching concrete paths, with the methods served there. */
function compilePatterns(catalogue: readonly RouteEntry[]) {
  const byUrl = new Map<string, Set<string>>();
  for (const route of catalogue) {
    const methods = byUrl.get(route.url) ?? new Set<string>();
    methods.add(route.method);
    byUrl.set(route.url, methods);
  }
  return [...byUrl].map(([url, methods]) => {
    const source = url
      .replace(/\/+$/, '')
      .split('/')
      .map((segment) =>
        segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    return { regex: new RegExp(`^${source}/?$`), methods };
  });
}
