import { mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** SOAK=1 (`npm run soak`): bigger bursts and more cases than the CI run. */
export const SOAK = process.env.SOAK === '1';

/** `ci` in the CI run, `soak` under SOAK=1. */
export const scale = (ci: number, soak: number) => (SOAK ? soak : ci);

export interface Distribution {
  n: number;
  min: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles of durations in milliseconds, rounded to 0.1 ms. */
export function distribution(values: readonly number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  const round = (value: number | undefined) => Math.round((value ?? Number.NaN) * 10) / 10;
  return {
    n: sorted.length,
    min: round(sorted[0]),
    p50: round(rank(0.5)),
    p95: round(rank(0.95)),
    p99: round(rank(0.99)),
    max: round(sorted.at(-1)),
  };
}

/** Runs `task` and returns its result with how long it took, in milliseconds. */
export async function timed<T>(task: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await task();
  return { value, ms: performance.now() - started };
}

/**
 * Sockets this process holds open, read from /proc/self/fd (every TCP socket, both ends of a
 * loopback connection, and the listening ones), with the libuv handles Node reports as a second
 * opinion (and the only one where /proc does not exist).
 */
export function openSockets(): { fds: number | undefined; tcpHandles: number } {
  let fds: number | undefined;
  try {
    fds = readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:');
      } catch {
        return false; // closed between the listing and the read
      }
    }).length;
  } catch {
    fds = undefined;
  }
  const tcpHandles = process
    .getActiveResourcesInfo()
    .filter((resource) => resource === 'TCPSocketWrap' || resource === 'TCPWrap').length;
  return { fds, tcpHandles };
}

/** TCP states of /proc/net/tcp, by their hex code. */
const TCP_STATES: Record<string, string> = {
  '01': 'established',
  '02': 'syn-sent',
  '03': 'syn-recv',
  '04': 'fin-wait1',
  '05': 'fin-wait2',
  '06': 'time-wait',
  '07': 'close',
  '08': 'close-wait',
  '09': 'last-ack',
  '0A': 'listen',
  '0B': 'closing',
};

/**
 * Connections to or from `port` on this machine, by state, from /proc/net/tcp{,6}: both ends of
 * a loopback connection appear. TIME_WAIT entries are closed sockets the kernel remembers, so they
 * are not counted as open; LISTEN is the server itself. Empty where /proc does not exist.
 */
export function tcpConnections(port: number): Record<string, number> {
  const counts: Record<string, number> = {};
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, remote, state] = line.trim().split(/\s+/);
      if (!local || !remote || !state) continue;
      if (!local.endsWith(`:${hexPort}`) && !remote.endsWith(`:${hexPort}`)) continue;
      const name = TCP_STATES[state] ?? state;
      if (name === 'time-wait' || name === 'listen') continue;
      counts[name] = (counts[name] ?? 0) + 1;
    }
  }
  return counts;
}

export const total = (counts: Record<string, number>) =>
  Object.values(counts).reduce((sum, count) => sum + count, 0);

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * The JavaScript heap in use after a full collection, in MiB: what is actually retained. RSS
 * also counts heap the collector has not given back yet, which grows under load without a leak.
 */
export function retainedHeapMiB(): number {
  collectGarbage();
  collectGarbage();
  return Math.round((process.memoryUsage().heapUsed / 1024 / 1024) * 10) / 10;
}

export const rssMiB = () => Math.round((process.memoryUsage().rss / 1024 / 1024) * 10) / 10;

/** Polls `probe` until `done` accepts its value or `ms` passes; returns the last value. */
export async function settle<T>(
  probe: () => T | Promise<T>,
  done: (value: T) => boolean,
  ms: number,
): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await probe();
  }
  return value;
}

/**
 * Prints a check's figures and keeps them as JSON in $TMPDIR/chat-reliability/<name>.json, where
 * RELIABILITY.md's tables are copied from.
 */
export function report(name: string, figures: unknown): void {
  const store = process.env.TEST_DATABASE_URL ? 'postgres' : 'embedded';
  const record = { check: name, store, soak: SOAK, at: new Date().toISOString(), figures };
  console.log(`[chat-reliability] ${JSON.stringify(record)}`);
  const folder = join(tmpdir(), 'chat-reliability');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, `${name}.${store}${SOAK ? '.soak' : ''}.json`),
    JSON.stringify(record, null, 2),
  );
}
