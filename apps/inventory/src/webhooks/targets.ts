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

/**
 * The IPv4 addresses an IPv6 address carries and that the network would reach through it: the
 * IPv4-compatible (::/96, deprecated but still routed by some stacks), mapped (::ffff:0:0/96),
 * translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96) forms, 6to4 (2002::/16: the relay's IPv4
 * address in bits 16–47) and Teredo (2001::/32: the server in bits 32–63, the client inverted in
 * the last 32 bits). Each is judged like the IPv4 address itself.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const parts = address.parts;
  const ipv4 = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const [p0 = 0, p1 = 0, p2 = 0, p3 = 0, p4 = 0, p5 = 0, p6 = 0, p7 = 0] = parts;
  const zeroPrefix = p0 === 0 && p1 === 0 && p2 === 0 && p3 === 0;
  // :: and ::1 are IPv6's own unspecified and loopback addresses, judged as such.
  if (zeroPrefix && p4 === 0 && p5 === 0 && p6 === 0 && p7 <= 1) return [];
  if (zeroPrefix && p4 === 0 && (p5 === 0 || p5 === 0xffff)) return [ipv4(p6, p7)];
  if (zeroPrefix && p4 === 0xffff && p5 === 0) return [ipv4(p6, p7)];
  if (p0 === 0x64 && p1 === 0xff9b && p2 === 0 && p3 === 0 && p4 === 0 && p5 === 0) {
    return [ipv4(p6, p7)];
  }
  if (p0 === 0x2002) return [ipv4(p1, p2)];
  if (p0 === 0x2001 && p1 === 0) return [ipv4(p2, p3), ipv4(p6 ^ 0xffff, p7 ^ 0xffff)];
  return [];
}

/** Why an address may not be called, or undefined when it may. */
export function refusedAddress(address: string, policy: TargetPolicy): string | undefined {
  if (policy.allowPrivateTargets) return undefined;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return `${address} is not an IP address`;
  }
  // ::7f00:1, ::ffff:127.0.0.1 or 2002:7f00:1:: reach 127.0.0.1: judge the IPv4 address carried.
  const carried = parsed.kind() === 'ipv6' ? embeddedIPv4(parsed as ipaddr.IPv6) : [];
  for (const ipv4 of carried) {
    const range = ipv4.range();
    if (range !== PUBLIC_RANGE) {
      return `the address ${address} carries ${ipv4.toString()}, which is ${range} (private targets are refused; see WEBHOOK_ALLOW_PRIVATE_TARGETS)`;
    }
  }
  if (carried.length > 0) return undefined;
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
