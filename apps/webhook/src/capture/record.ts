import type { HeaderPairs } from '../config/types.js';

/** One captured request, as received: nothing normalised away. */
export interface CapturedRequest {
  /** 1, 2, 3... in the order requests completed; never reused, not even after a clear. */
  readonly seq: number;
  /** When the request line and headers arrived (ms since the epoch). */
  readonly receivedAt: number;
  readonly method: string;
  /** The request target exactly as sent: path and query, still percent-encoded. */
  readonly target: string;
  /** The decoded path without its query (the raw path when it does not decode). */
  readonly path: string;
  /** Scheme, host (the Host header, else the listening address), path and query. */
  readonly url: string;
  /** Query parameters in order; repeated names kept. */
  readonly query: HeaderPairs;
  /** Headers in arrival order, names as sent; repeated headers kept. */
  readonly headers: HeaderPairs;
  /** The body bytes kept (at most --max-body). */
  readonly body: Buffer;
  /** Bytes the client sent in the body, kept or not. */
  readonly size: number;
  /** True when the body was longer than --max-body and only its start was kept. */
  readonly truncated: boolean;
  /** Client address and port, e.g. `127.0.0.1:51234`. */
  readonly remote: string;
  readonly httpVersion: string;
}

/** Case-insensitive lookup of the first header with that name. */
export function headerValue(headers: HeaderPairs, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return headers.find(([key]) => key.toLowerCase() === wanted)?.[1];
}

/** Pairs from Node's flat `rawHeaders` list. */
export function pairHeaders(raw: readonly string[]): HeaderPairs {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i] ?? '', raw[i + 1] ?? '']);
  return pairs;
}

/** Decodes a path for matching and display; a malformed escape leaves it as sent. */
export function decodePath(rawPath: string): string {
  try {
    return decodeURIComponent(rawPath);
  } catch {
    return rawPath;
  }
}

/** Splits a request target into its decoded path and its query pairs. */
export function splitTarget(target: string): { path: string; query: HeaderPairs } {
  // An absolute-form target (`GET http://host/path`, as sent to proxies) still has a path.
  let rest = target;
  if (!rest.startsWith('/') && /^[a-z][a-z0-9+.-]*:\/\//i.test(rest)) {
    const afterScheme = rest.indexOf('//') + 2;
    const slash = rest.indexOf('/', afterScheme);
    rest = slash === -1 ? '/' : rest.slice(slash);
  }
  const mark = rest.indexOf('?');
  const rawPath = mark === -1 ? rest : rest.slice(0, mark);
  const search = mark === -1 ? '' : rest.slice(mark + 1);
  return { path: decodePath(rawPath), query: [...new URLSearchParams(search)] };
}

/** The complete URL the client asked for. */
export function completeUrl(target: string, host: string | undefined, fallbackHost: string) {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) return target;
  return `http://${host || fallbackHost}${target.startsWith('/') ? '' : '/'}${target}`;
}
