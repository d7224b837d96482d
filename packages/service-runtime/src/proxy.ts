import { isIP } from 'node:net';

/** The keywords proxy-addr (Fastify's trustProxy) understands besides addresses and ranges. */
const TRUST_PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * True for what a TRUST_PROXY list may hold: an IP address, a CIDR range (`10.1.0.0/16`) or one of
 * proxy-addr's keywords. Both services check their lists with it before Fastify sees them.
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
