import type { SentResponse } from '../capture/record.js';
import type { HeaderPairs, ResponseSpec, RouteSpec, VerifySpec } from '../config/types.js';

/**
 * A response ready to write: headers complete, body encoded once at start-up. The capture server
 * groups the headers into the form Node's `setHeader` takes (`groupHeaders`), once per response.
 */
export interface PreparedResponse {
  readonly status: number;
  /** As configured, in order, plus the inferred Content-Type. */
  readonly headers: HeaderPairs;
  readonly body: Buffer;
  /** The same, as a record's `response` (one object shared by every request it answers). */
  readonly sent: SentResponse;
}

export type Responder = (method: string, path: string) => PreparedResponse;

/**
 * Whether a route applies to a request. `method` is compared case-insensitively and a route
 * without one takes every method. `path` is the decoded request path without its query: it must
 * equal the route's path, or, when the route's path ends in `/*`, start with what comes before the
 * `*` (`/hooks/*` takes `/hooks`, `/hooks/` and `/hooks/a/b`, not `/hooksx`).
 */
export function routeMatches(route: RouteSpec, method: string, path: string): boolean {
  if (route.method !== null && route.method !== method.toUpperCase()) return false;
  if (!route.path.endsWith('/*')) return path === route.path;
  const prefix = route.path.slice(0, -1); // keeps the trailing slash
  return path.startsWith(prefix) || path === prefix.slice(0, -1);
}

/** The first route in file order that matches, or null. */
export function findRoute(
  routes: readonly RouteSpec[],
  method: string,
  path: string,
): RouteSpec | null {
  return routes.find((route) => routeMatches(route, method, path)) ?? null;
}

/** Builds the function the server asks for each response. */
export function createResponder(
  defaultResponse: ResponseSpec,
  routes: readonly RouteSpec[],
): Responder {
  const prepared = new Map<ResponseSpec, PreparedResponse>();
  const prepare = (spec: ResponseSpec) => {
    let response = prepared.get(spec);
    if (!response) {
      response = prepareResponse(spec);
      prepared.set(spec, response);
    }
    return response;
  };
  for (const spec of [defaultResponse, ...routes.map((route) => route.response)]) {
    if (spec) prepare(spec);
  }
  return (method, path) =>
    prepare(
      routes.find((route) => route.response && routeMatches(route, method, path))?.response ??
        defaultResponse,
    );
}

/** Adds a Content-Type from the body when the config gave none: JSON, else plain text. */
export function prepareResponse(spec: ResponseSpec): PreparedResponse {
  const headers = withContentTypeFromBody(spec.headers, spec.body);
  const body = Buffer.from(spec.body, 'utf8');
  return {
    status: spec.status,
    headers,
    body,
    sent: { status: spec.status, headers, body },
  };
}

/**
 * The headers, with a Content-Type from the body when they have none: JSON when it parses,
 * else plain text, none for an empty body. The relay's channels answer by the same rule.
 */
export function withContentTypeFromBody(headers: HeaderPairs, body: string): HeaderPairs {
  const hasContentType = headers.some(([name]) => name.toLowerCase() === 'content-type');
  return hasContentType || body === ''
    ? headers
    : [...headers, ['Content-Type', inferContentType(body)] as const];
}

function inferContentType(body: string): string {
  try {
    JSON.parse(body);
    return 'application/json';
  } catch {
    return 'text/plain; charset=utf-8';
  }
}

/** What the routes decide for one request: each aspect from the first matching route that sets it. */
export interface RouteDecision {
  readonly response: PreparedResponse;
  /** Where to forward (`base` joined with the request by `forwardUrl`), or null. */
  readonly forward: { readonly base: string; readonly route: RouteSpec | null } | null;
  readonly verify: VerifySpec | null;
}

export interface RouterSettings {
  readonly defaultResponse: ResponseSpec;
  readonly routes: readonly RouteSpec[];
  /** `--forward-to` or the file's top-level `forward`. */
  readonly defaultForward: string | null;
  /** The file's top-level `verify`. */
  readonly defaultVerify: VerifySpec | null;
}

export type Router = (method: string, path: string) => RouteDecision;

/**
 * For each aspect (response, forward, verify) the first route in file order that matches and sets
 * it wins; a route that leaves it out lets later routes, then the top-level setting, decide;
 * `forward: false` / `verify: false` stop the search (no forwarding, no check).
 */
export function createRouter(settings: RouterSettings): Router {
  const respond = createResponder(settings.defaultResponse, settings.routes);
  return (method, path) => {
    let forward: RouteDecision['forward'] | undefined;
    let verify: VerifySpec | null | undefined;
    for (const route of settings.routes) {
      if (forward !== undefined && verify !== undefined) break;
      if (!routeMatches(route, method, path)) continue;
      if (forward === undefined && route.forward !== undefined && route.forward !== null) {
        forward = route.forward === false ? null : { base: route.forward, route };
      }
      if (verify === undefined && route.verify !== undefined && route.verify !== null) {
        verify = route.verify === false ? null : route.verify;
      }
    }
    if (forward === undefined) {
      forward = settings.defaultForward ? { base: settings.defaultForward, route: null } : null;
    }
    // `verify: false` left null here: the route asked for no check, whatever the top level says.
    if (verify === undefined) verify = settings.defaultVerify;
    return { response: respond(method, path), forward, verify };
  };
}
