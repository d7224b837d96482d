import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_PASSWORD, type MainRun, startMain } from './spawn-main.js';

/**
 * The service on an embedded store whose disk fills up. A write the disk refuses answers 503
 * (nothing was written; it succeeds once there is space); when the WAL cannot be written,
 * PostgreSQL PANICs, and the service exits 1 with one line saying so, instead of spinning for
 * good without answering, /health included, or heeding SIGTERM. Every acknowledged write is
 * there after the restart. A real disk, a 60 MB tmpfs, which needs root (mount): elsewhere the
 * test is skipped.
 */
const root = mkdtempSync(join(tmpdir(), 'inventory-disk-full-'));
const disk = join(root, 'disk');
let mounted = false;
const runs: MainRun[] = [];

beforeAll(() => {
  mkdirSync(disk);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=60m', 'tmpfs', disk], { stdio: 'ignore' });
    mounted = true;
  } catch {
    mounted = false;
  }
});
afterAll(() => {
  for (const run of runs) run.cleanup();
  if (mounted) execFileSync('umount', ['-l', disk]);
  rmSync(root, { recursive: true, force: true });
});

async function login(url: string): Promise<string> {
  const response = await fetch(`${url}/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: MAIN_PASSWORD }),
  });
  return ((await response.json()) as { token: string }).token;
}

describe('the inventory when the embedded store’s disk fills up', () => {
  it('answers 503 for a refused write, exits 1 in one line after a PANIC, and keeps every acknowledged write', async (context) => {
    if (!mounted) context.skip();
    const dataDir = join(disk, 'data');
    const env = { DATA_DIR: dataDir, RATE_LIMIT_MAX: '0', LOG_LEVEL: 'warn' };
    const run = startMain(env);
    runs.push(run);
    const url = await run.listening();
    const token = await login(url);
    const { bavail, bsize } = statfsSync(disk);
    execFileSync('fallocate', [
      '-l',
      String(bavail * bsize - 6 * 1024 * 1024),
      join(disk, 'filler'),
    ]);
    const acknowledged: string[] = [];
    const refusals: number[] = [];
    for (let batch = 1; batch <= 200 && run.child.exitCode === null; batch++) {
      const devices = Array.from({ length: 50 }, (_, k) => ({
        hostname: `h-${batch}-${k}`,
        ip: `10.79.${batch}.${k}`,
        model: 'x'.repeat(250),
        os: 'y'.repeat(250),
      }));
      const answer = await fetch(`${url}/devices`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(devices),
        signal: AbortSignal.timeout(10_000),
      }).catch(() => undefined);
      if (answer?.status === 201) acknowledged.push(...devices.map((device) => device.hostname));
      else {
        if (answer !== undefined) refusals.push(answer.status);
        break;
      }
    }
    // Some writes went through before the disk was full; the refusal, if the answer got out
    // before the exit, is a 503.
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const status of refusals) expect(status).toBe(503);
    const code = await Promise.race([
      run.exited,
      new Promise((resolve) => setTimeout(() => resolve('still running'), 15_000)),
    ]);
    expect(code).toBe(1);
    const lines = run.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^embedded PostgreSQL in DATA_DIR ${dataDir} failed and cannot go on \\(.*No space left on device\\)`,
      ),
    );
    // Space back, started again: every acknowledged device is there.
    rmSync(join(disk, 'filler'));
    const again = startMain(env);
    runs.push(again);
    const url2 = await again.listening();
    const { count } = (await (await fetch(`${url2}/debug/count`)).json()) as { count: number };
    expect(count).toBeGreaterThanOrEqual(acknowledged.length);
    await again.stop();
  }, 180_000);
});
