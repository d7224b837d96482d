/** Where a forwarded or replayed request goes: a base URL joined with the request as sent. */
import { decodePath } from '../capture/record.js';
import type { RouteSpec } from '../config/types.js';

/**
 * The part of `path` (raw, as sent) that a route matched: all of it for an exact route, up to the
 * `/*` for a wildcard one, nothing without a route. Matching is on the decoded path, so the raw
 * prefix is the shortest one that decodes to it.
 */
function matchedRawPrefix(route: RouteSpec | null, rawPath: string): number {
  if (!route) return 0;
  const decodedPrefix = route.path.endsWith('/*') ? route.path.slice(0, -2) : route.path;
  if (rawPath.startsWith(decodedPrefix)) return decodedPrefix.length;
  for (let end = 0; end <= rawPath.length; end += 1) {
    if (decodePath(rawPath.slice(0, end)) === decodedPrefix) return end;
  }
  return 0;
}

const ASTERISK_URL = /^(https?:\/\/[^/?#@*]+)\*$/i;

/**
 * How an exchange's target is recorded: a URL anyone can parse, and the request target sent when
 * it is not that URL's path. `forwardUrl` writes the asterisk-form (`OPTIONS *`) as `http://host*`
 * for sendRequest; records hold `http://host` and `requestTarget: '*'` (HAR, like `new URL`, has
 * no way to write `*` in a URL). Files saved before keep loading: their `http://host*` is read the
 * same way.
 */
export function recordedTarget(url: string): { target: string; requestTarget?: '*' } {
  const asterisk = ASTERISK_URL.exec(url);
  return asterisk ? { target: asterisk[1] as string, requestTarget: '*' } : { target: url };
}

/**
 * The URL a request goes to: the part of its path the route matched (all of it for an exact route,
 * the prefix before `/*` for a wildcard one, nothing without a route) is replaced by `base`'s
 * path; the rest of the path and the query follow as sent.
 */
export function forwardUrl(base: string, route: RouteSpec | null, target: string): string {
  let url = bases.get(base);
  if (!url) {
    url = new URL(base);
    if (bases.size >= MAX_BASES) bases.clear();
    bases.set(base, url);
  }
  // The asterisk-form (`OPTIONS *`, the server as a whole) has no path to join: it goes to the
  // base's path when it has one, else as `*` (`http://host*`, which sendRequest sends as `*`).
  if (target === '*') {
    return `${url.protocol}//${url.host}${url.pathname === '/' ? '*' : url.pathname}`;
  }
  // An absolute-form target (`POST http://host/path`) still has a path and query to carry.
  let requestTarget = target;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(requestTarget);
  if (absolute) requestTarget = requestTarget.slice(absolute[0].length) || '/';
  const mark = requestTarget.indexOf('?');
  const rawPath = mark === -1 ? requestTarget : requestTarget.slice(0, mark);
  const query = mark === -1 ? '' : requestTarget.slice(mark);
  const rest = rawPath.slice(matchedRawPrefix(route, rawPath));
  let path = url.pathname;
  if (rest !== '')
    path = path.endsWith('/') && rest.startsWith('/') ? path + rest.slice(1) : path + rest;
  // Set as text, not through URL's setters, so the bytes the client sent are not re-encoded.
  return `${url.protocol}//${url.host}${path}${query || url.search}`;
}

/** Forward bases parsed so far (config values: a few, and URLs typed for replays), read only. */
const bases = new Map<string, URL>();
const MAX_BASES = 256;

/**
 * Why a forward or replay URL with credentials (`http://user:pw@host`) is refused, wherever it is
 * given: requests are sent with their own headers only, so they were accepted and silently dropped.
 */
export const CREDENTIALS_PROBLEM =
  'must not hold credentials (user:password@): they would not be sent';

/** Why a forward or replay URL with a query or fragment is refused, wherever it is given. */
export const QUERY_PROBLEM = 'must not have a query or fragment (the request brings its own)';
