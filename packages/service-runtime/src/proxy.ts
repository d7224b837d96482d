import { isIP } from 'node:net';
import type { EnvVariable } from './environment.js';

/** TRUST_PROXY as both services declare it (their CORS_ORIGINS defaults differ). */
export const TRUST_PROXY_VARIABLE: EnvVariable = {
  name: 'TRUST_PROXY',
  help: 'addresses, CIDR ranges or loopback/linklocal/uniquelocal of your proxies (default: none)',
};

/** The keywords proxy-addr (Fastify's trustProxy) understands besides addresses and ranges. */
const TRUST_PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * True for what a TRUST_PROXY list may hold: an IP address, a CIDR range (`10.1.0.0/16`) or one of
 * proxy-addr's keywords.
 */
export function isTrustedProxyEntry(entry: string): boolean {
  if (TRUST_PROXY_KEYWORDS.has(entry) || isIP(entry) !== 0) return true;
  const slash = entry.lastIndexOf('/');
  if (slash < 0) return false;
  const version = isIP(entry.slice(0, slash));
  const prefix = entry.slice(slash + 1);
  if (version === 0 || !/^[0-9]{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Whose X-Forwarded-For both services believe. `false`: nobody's, the socket's address is the
 * client's. A list: the peers with these addresses, CIDR ranges or keywords (`loopback`,
 * `linklocal`, `uniquelocal`); the client is the rightmost X-Forwarded-For entry that is not one
 * of them.
 *
 * Never `true` and never a hop count. `true` believes the leftmost entry, which the client writes
 * itself. A hop count ("the 2nd entry from the right") believes whoever connects: a client that
 * reaches the service around the proxy (a second listener, a misrouted port, a proxy that
 * appends instead of replaces) writes the entries that count, and so picks its own address and
 * with it its own rate-limit and lock-out budget. Naming the proxies cannot be fooled that way,
 * and every deployment knows its proxies' addresses or network (Fastify 5 itself ignores a plain
 * hop count for the same reason).
 */
export type TrustProxySetting = false | readonly string[];

const OFF = new Set(['', '0', 'false', 'no', 'off', 'none']);
const EXAMPLE =
  'name the proxies (TRUST_PROXY=10.0.0.5, TRUST_PROXY=10.0.0.0/8 or TRUST_PROXY=loopback)';

/** Parses TRUST_PROXY; throws an Error whose message (without the variable's name) says why not. */
export function parseTrustProxy(raw: string | undefined): TrustProxySetting {
  const text = raw?.trim() ?? '';
  if (OFF.has(text.toLowerCase())) return false;
  if (['true', 'yes', 'on', '*'].includes(text.toLowerCase())) {
    throw new Error(`"${text}" would let any client choose its own address; ${EXAMPLE}`);
  }
  if (/^[0-9]+$/.test(text)) {
    throw new Error(
      `"${text}" is a hop count, which would let a client that reaches the service directly choose its own address; ${EXAMPLE}`,
    );
  }
  const entries = splitList(text);
  for (const entry of entries) {
    if (!isTrustedProxyEntry(entry)) {
      throw new Error(
        `"${entry}" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal`,
      );
    }
  }
  return entries;
}

/**
 * CORS_ORIGINS: `none` (or empty, when the service's default is none) allows no cross-origin
 * browser calls; otherwise each entry must be an http(s) origin, returned as browsers send it in
 * the Origin header (lower-case host, no default port). `*` is refused: every origin is named.
 * `fallback` is what an unset variable means (each service has its own default).
 */
export function parseCorsOrigins(
  raw: string | undefined,
  fallback: readonly string[] = [],
): readonly string[] {
  const text = raw?.trim() ?? '';
  if (text === '') return fallback;
  if (text.toLowerCase() === 'none') return [];
  return splitList(text).map((entry) => {
    if (entry === '*') {
      throw new Error('"*" is not accepted: name each origin (https://app.example.com)');
    }
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    const bare =
      url !== undefined &&
      ['http:', 'https:'].includes(url.protocol) &&
      url.pathname === '/' &&
      !url.search &&
      !url.hash &&
      !url.username &&
      !url.password &&
      !entry.replace(/\/$/, '').endsWith('/');
    if (!url || !bare) {
      throw new Error(`"${shownEntry(entry)}" is not an origin like https://app.example.com`);
    }
    return url.origin;
  });
}

/**
 * A refused entry as a message repeats it: a password, a query and a fragment are secrets an
 * entry may hold by mistake (`https://user:pw@host`), so they are masked.
 */
function shownEntry(entry: string): string {
  return entry
    .replace(/^([^:/?#]*:\/\/[^:/?#@]*):[^/?#]*@/, '$1:***@')
    .replace(/\?.*$/s, '?…')
    .replace(/#.*$/s, '#…');
}

export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}
