import { readFileSync } from 'node:fs';

/**
 * CPU time spent by processes during a measured run, from Linux's /proc/<pid>/stat (user and
 * system time, in clock ticks of 10 ms). Divided by the requests answered, it says what one
 * request costs the server and the database whatever else runs on the machine: throughput on a
 * shared 2-core machine moves with the neighbours, CPU per request much less.
 */

const TICK_MS = 10;

/** User + system CPU of a process so far, in milliseconds; null when unreadable. */
export function cpuMsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const user = Number(fields[11]);
    const system = Number(fields[12]);
    return Number.isFinite(user) && Number.isFinite(system) ? (user + system) * TICK_MS : null;
  } catch {
    return null;
  }
}

/** Each readable process's CPU so far, in milliseconds. */
function cpuOf(pids: readonly number[]): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    const ms = cpuMsOf(pid);
    if (ms !== null) cpu.set(pid, ms);
  }
  return cpu;
}

/**
 * CPU the processes `pids` used since `before` was read, in milliseconds (a process not read then
 * counts in full); null when none of them can be read.
 */
function cpuSince(before: ReadonlyMap<number, number>, pids: readonly number[]): number | null {
  const now = cpuOf(pids);
  if (now.size === 0) return null;
  let total = 0;
  for (const [pid, ms] of now) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** CPU used by a set of processes between `start()` and `stop()`, in milliseconds. */
export function cpuMeter(pids: readonly number[]) {
  const before = cpuOf(pids);
  return {
    stop: (): number | null => (before.size === 0 ? null : cpuSince(before, pids)),
  };
}

/**
 * CPU this process used from the call to `stop()`, in milliseconds: the load generator's own
 * share of the machine, which the server, PostgreSQL and it divide between them.
 */
export function ownCpuMeter() {
  const before = process.cpuUsage();
  return {
    stop: (): number => {
      const used = process.cpuUsage(before);
      return (used.user + used.system) / 1000;
    },
  };
}

/**
 * As `cpuMeter`, over processes listed again when it stops: one that started since (a pool
 * opening its connections lazily, during the first requests) counts all of its CPU.
 */
export async function cpuMeterOfListed(list: () => Promise<readonly number[]>) {
  const before = cpuOf(await list());
  return {
    stop: async (): Promise<number | null> => cpuSince(before, await list()),
  };
}
