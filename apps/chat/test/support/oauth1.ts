import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * An OAuth 1.0a (RFC 5849) HMAC-SHA1 signature checker written for the tests from the RFC, not from
 * the production code (which signs with the `oauth-1.0a` library): the fake provider uses it to
 * check what the service sends, and oauth1.test.ts pins it to Twitter's documented example.
 */

/** RFC 5849 3.6: RFC 3986 unreserved characters stay, everything else is %XX (uppercase). */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** RFC 5849 3.5.1: `OAuth key="value", ...`, values percent-encoded. */
export function parseAuthorizationHeader(
  header: string | undefined,
): Map<string, string> | undefined {
  if (!header?.startsWith('OAuth ')) return undefined;
  const params = new Map<string, string>();
  for (const part of header.slice(6).split(',')) {
    const match = /^\s*([^=\s]+)="([^"]*)"\s*$/.exec(part);
    if (!match?.[1] || match[2] === undefined) return undefined;
    params.set(decodeURIComponent(match[1]), decodeURIComponent(match[2]));
  }
  return params;
}

/** RFC 5849 3.4.1: method, base string URI and the normalised parameters, each encoded, joined by "&". */
export function signatureBaseString(
  method: string,
  url: URL,
  oauthParams: Map<string, string>,
  bodyParams: URLSearchParams = new URLSearchParams(),
): string {
  const pairs: [string, string][] = [];
  for (const [key, value] of url.searchParams) pairs.push([key, value]);
  for (const [key, value] of bodyParams) pairs.push([key, value]);
  for (const [key, value] of oauthParams) {
    if (key !== 'oauth_signature' && key !== 'realm') pairs.push([key, value]);
  }
  const normalised = pairs
    .map(([key, value]) => [percentEncode(key), percentEncode(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const defaultPort =
    (url.protocol === 'http:' && url.port === '80') ||
    (url.protocol === 'https:' && url.port === '443');
  const base = `${url.protocol}//${url.hostname.toLowerCase()}${url.port && !defaultPort ? `:${url.port}` : ''}${url.pathname}`;
  return [method.toUpperCase(), percentEncode(base), percentEncode(normalised)].join('&');
}

export function hmacSha1Signature(baseString: string, consumerSecret: string, tokenSecret: string) {
  const key = `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`;
  return createHmac('sha1', key).update(baseString).digest('base64');
}

export function signatureMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
