import { isIP } from 'node:net';

/**
 * The client as rate limits and lock-outs count it: an IPv4 address as it is, an IPv6 address
 * by its /64 (one host commonly holds a whole /64, so counting per address would give it 2^64
 * budgets). An IPv4-mapped IPv6 address is its IPv4 address; a zone (`%eth0`) is dropped.
 * Anything that is not an IP address is returned as it is.
 */
export function addressBucket(ip: string): string {
  const address = ip.split('%')[0] ?? ip;
  if (isIP(address) !== 6) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  const [head = '', tail] = address.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  // An embedded IPv4 address (`::1.2.3.4`) is two groups wide.
  const width = (groups: string[]) => groups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const groups =
    tail === undefined
      ? headGroups
      : [
          ...headGroups,
          ...Array<string>(8 - width(headGroups) - width(tailGroups)).fill('0'),
          ...tailGroups,
        ];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
