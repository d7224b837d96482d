import { randomBytes } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import type { HeaderPairs } from '../config/types.js';

/**
 * Forwarding loops. A forward target that is this tool's own address would send every request
 * back to itself, without end (one request became 32,410 records in 6 s): refused at start-up. A
 * loop through another hop (this tool → another forwarder → this tool) cannot be seen from the
 * configuration: every forwarded request carries `Via: 1.1 webhook-<id>` (RFC 9110 §7.6.3, the
 * header proxies add), `<id>` random per run, and a request that arrives with this run's own mark
 * is recorded and answered but not forwarded again.
 */
export function loopMark(): string {
  return `webhook-${randomBytes(6).toString('hex')}`;
}

/** The `Via` value forwards carry. */
export function viaValue(mark: string): string {
  return `1.1 ${mark}`;
}

/** Whether the request already went through this run's forwarding (its `Via` names `mark`). */
export function passedThrough(headers: HeaderPairs, mark: string): boolean {
  for (const [name, value] of headers) {
    if (name.toLowerCase() !== 'via') continue;
    for (const hop of value.split(',')) {
      const parts = hop.trim().split(/\s+/);
      if (parts[1] === mark) return true;
    }
  }
  return false;
}

/** Host names that reach this machine's own listening socket. */
function ownHosts(listeningHost: string): Set<string> {
  const hosts = new Set(['localhost', '127.0.0.1', '::1', '::ffff:127.0.0.1']);
  const host = listeningHost.replace(/^\[|\]$/g, '').toLowerCase();
  hosts.add(host);
  // Listening on every interface: every address of this machine reaches it.
  if (host === '0.0.0.0' || host === '::' || host === '') {
    hosts.add('0.0.0.0');
    hosts.add('::');
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) hosts.add(address.address.toLowerCase());
    }
  }
  return hosts;
}

/**
 * The first of `targets` (forward base URLs) that is the tool's own listening address, or null.
 * Names that resolve elsewhere to this machine are left to the `Via` mark.
 */
export function ownAddressTarget(
  targets: readonly string[],
  listening: { readonly host: string; readonly port: number },
): string | null {
  const hosts = ownHosts(listening.host);
  for (const target of targets) {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      continue;
    }
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (port === listening.port && (hosts.has(host) || /^127\./.test(host))) return target;
  }
  return null;
}
