import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { Access } from '../auth/roles.js';
import { ApiError, badRequest, notFound } from '../errors.js';

export interface RouteEntry {
  method: string;
  url: string;
  access: Access;
}

/** Query parameters that may legitimately repeat. */
const REPEATABLE_QUERY_PARAMETERS = new Set(['sortby', 'tags']);

/**
 * Routing concerns that no single route owns: the catalogue of routes (405 answers and the role
 * matrix test read it), 404 and 405 for paths and methods nobody serves, and the rule that a
 * query parameter appears once.
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
    const query = request.query as Record<string, unknown>;
    for (const [name, value] of Object.entries(query)) {
      if (Array.isArray(value) && !REPEATABLE_QUERY_PARAMETERS.has(name)) {
        throw badRequest(`Duplicate query parameter forbidden: ${name}`);
      }
    }
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
    if (allowed.length > 0) {
      throw new ApiError(405, `Method ${request.method} not allowed`, {
        allow: allowed.join(', '),
      });
    }
    throw notFound(`Route ${request.method} ${path} not found`);
  });

  return catalogue;
}

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
