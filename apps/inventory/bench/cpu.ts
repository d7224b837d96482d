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

/** CPU used by a set of processes between `start()` and `stop()`, in milliseconds. */
export function cpuMeter(pids: readonly number[]) {
  const read = () => {
    let total = 0;
    let readable = 0;
    for (const pid of pids) {
      const ms = cpuMsOf(pid);
      if (ms !== null) {
        total += ms;
        readable++;
      }
    }
    return readable > 0 ? total : null;
  };
  const before = read();
  return {
    stop(): number | null {
      const after = read();
      return before === null || after === null ? null : after - before;
    },
  };
}

/**
 * As `cpuMeter`, over processes listed again when it stops: one that started since (a pool
 * opening its connections lazily, during the first requests) counts all of its CPU.
 */
export async function cpuMeterOfListed(list: () => Promise<readonly number[]>) {
  const before = new Map<number, number>();
  for (const pid of await list()) {
    const ms = cpuMsOf(pid);
    if (ms !== null) before.set(pid, ms);
  }
  return {
    async stop(): Promise<number | null> {
      let total = 0;
      let readable = 0;
      for (const pid of await list()) {
        const ms = cpuMsOf(pid);
        if (ms === null) continue;
        total += ms - (before.get(pid) ?? 0);
        readable++;
      }
      return readable > 0 ? total : null;
    },
  };
}
