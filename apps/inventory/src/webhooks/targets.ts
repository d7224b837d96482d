import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Server-side request forgery: where a webhook may point. By default only public unicast
 * addresses are called; loopback, private, link-local (cloud metadata at 169.254.169.254 and
 * fd00:ec2::254 among them), unique-local, unspecified, multicast, broadcast, carrier-grade NAT,
 * reserved ranges and IPv4-mapped/translated forms of any of them are refused, at creation and
 * again when delivering (DNS can change between the two). WEBHOOK_ALLOW_PRIVATE_TARGETS=true
 * lifts this for on-premises receivers.
 */
export interface TargetPolicy {
  allowPrivateTargets: boolean;
}

/** The only range ipaddr.js calls public. */
const PUBLIC_RANGE = 'unicast';

/** Why an address may not be called, or undefined when it may. */
export function refusedAddress(address: string, policy: TargetPolicy): string | undefined {
  if (policy.allowPrivateTargets) return undefined;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return `${address} is not an IP address`;
  }
  // ::ffff:127.0.0.1 is 127.0.0.1 to the network stack: judge the IPv4 address it carries.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range = parsed.range();
  if (range !== PUBLIC_RANGE) {
    return `the address ${address} is ${range} (private targets are refused; see WEBHOOK_ALLOW_PRIVATE_TARGETS)`;
  }
  return undefined;
}

/** The URL's host as the HTTP client will resolve it (brackets of an IPv6 literal removed). */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Why a webhook URL may not be called, or undefined. The URL is parsed as WHATWG does (so
 * `http://2130706433/` and `http://0x7f.1/` are 127.0.0.1, as the client would see them), must
 * be http or https without credentials, and every address its host resolves to must be allowed.
 */
export async function checkTargetUrl(
  text: string,
  policy: TargetPolicy,
  resolve: (host: string) => Promise<string[]> = resolveAll,
): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username !== '' || url.password !== '') {
    return 'must not carry credentials (use headers)';
  }
  if (policy.allowPrivateTargets) return undefined;
  const host = hostOf(url);
  if (isIP(host) !== 0) return refusedAddress(host, policy);
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return `the host ${host} does not resolve`;
  }
  if (addresses.length === 0) return `the host ${host} does not resolve`;
  for (const address of addresses) {
    const problem = refusedAddress(address, policy);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** A write waits at most this long for the URL's host to resolve. */
export const RESOLVE_TIMEOUT_MS = 3000;

function resolveAll(host: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('DNS timeout')), RESOLVE_TIMEOUT_MS);
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(addresses.map((entry) => entry.address));
    });
  });
}

/**
 * A `lookup` for node:http(s) that resolves as usual and then drops the addresses the policy
 * refuses: the connection can only be made to an address that was checked, so a name that
 * resolved to a public address at creation and to 127.0.0.1 now (DNS rebinding) fails here.
 */
export function guardedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true, verbatim: true }, (error, found) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const entries = found as unknown as LookupAddress[];
      const allowed = entries.filter(
        (entry) => refusedAddress(entry.address, policy) === undefined,
      );
      if (allowed.length === 0) {
        const problem =
          entries.length > 0
            ? refusedAddress(entries[0]?.address ?? '', policy)
            : `${hostname} does not resolve`;
        const refusal = Object.assign(new Error(problem ?? 'address refused'), {
          code: 'EWEBHOOKTARGET',
        });
        callback(refusal, '', 0);
        return;
      }
      if ((options as { all?: boolean }).all) {
        (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      } else {
        const first = allowed[0] as LookupAddress;
        callback(null, first.address, first.family);
      }
    });
  };
}
