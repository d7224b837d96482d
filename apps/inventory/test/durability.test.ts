import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAIN_PASSWORD, startMain } from './spawn-main.js';

/**
 * The embedded store's durability, seen from the operating system: the server runs under strace,
 * and between a write request arriving and its answer leaving, the WAL segment must be flushed
 * (fdatasync/fsync of a file under pg_wal). CI installs strace (.ci/run) and sets
 * NETOPS_REQUIRE_STRACE=1, so there the test cannot be skipped.
 */
const hasStrace = spawnSync('strace', ['-V']).status === 0;
if (!hasStrace && process.env.NETOPS_REQUIRE_STRACE === '1') {
  throw new Error('strace is required (NETOPS_REQUIRE_STRACE=1) but cannot be run');
}
if (!hasStrace) {
  console.warn('durability.test.ts skipped: strace is not installed (apt-get install strace)');
}

interface TracedWrite {
  /** The trace's lines from the request's arrival to the end of its answer. */
  lines: string[];
  status: number;
}

/** Starts main.ts, attaches strace to it, makes one write, returns that write's system calls. */
async function traceOneWrite(env: Record<string, string>): Promise<TracedWrite> {
  const run = startMain({ LOG_LEVEL: 'warn', ...env });
  const traceFile = join(run.dir, 'trace');
  let strace: ReturnType<typeof spawn> | undefined;
  try {
    const url = await run.listening();
    const login = await fetch(`${url}/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: MAIN_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };

    // Attached once the server is up: tracing the start-up (tsx, PGlite's reads) is slow and
    // says nothing about a write.
    strace = spawn(
      'strace',
      [
        '-f',
        '-y',
        '-e',
        'trace=fsync,fdatasync,pwrite64,write,writev,read',
        '-o',
        traceFile,
        '-p',
        String(run.child.pid),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let traceLog = '';
    strace.stderr?.on('data', (chunk: Buffer) => {
      traceLog += chunk.toString();
    });
    const straceExited = new Promise((resolve) => strace?.on('exit', resolve));
    for (let i = 0; i < 300 && !/attached/.test(traceLog); i++) {
      if (strace.exitCode !== null) throw new Error(`strace could not attach:\n${traceLog}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    // A name this unique marks the request's arrival in the trace (the `read` of its bytes).
    const name = `durable-${Date.now()}`;
    const created = await fetch(`${url}/locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name, city: 'Oslo', country: 'NO' }),
    });
    await created.text();
    strace.kill('SIGINT');
    await straceExited;
    const trace = readFileSync(traceFile, 'utf8').split('\n');
    const arrival = trace.findIndex((line) => line.includes('POST /locations'));
    const answer = trace.findIndex(
      (line, index) => index > arrival && /HTTP\/1\.1 201/.test(line) && /socket:/.test(line),
    );
    expect(arrival, 'the request is in the trace').toBeGreaterThan(-1);
    expect(answer, 'the answer is in the trace').toBeGreaterThan(arrival);
    return { lines: trace.slice(arrival, answer + 1), status: created.status };
  } finally {
    if (strace && strace.exitCode === null) strace.kill('SIGKILL');
    await run.stop();
    run.cleanup();
  }
}

const walFlush = /\b(fdatasync|fsync)\(\d+<[^>]*\/pg_wal\/[0-9A-F]{24}>\)\s+= 0/;
const walFlushStarted =
  /^(\d+)\s+(fdatasync|fsync)\(\d+<[^>]*\/pg_wal\/[0-9A-F]{24}> <unfinished \.\.\.>/;

/**
 * The index of the line where a WAL flush completed, or -1. With several threads traced, strace
 * splits a call another thread interrupts into `fdatasync(…) <unfinished ...>` and, later,
 * `<... fdatasync resumed>) = 0` on the same thread: the flush is done at the second line.
 */
function walFlushCompleted(lines: string[]): number {
  for (const [index, line] of lines.entries()) {
    if (walFlush.test(line)) return index;
    const started = walFlushStarted.exec(line);
    if (!started) continue;
    const [, thread, call] = started;
    const resumed = new RegExp(`^${thread}\\s+<\\.\\.\\. ${call} resumed>\\)\\s+= 0`);
    const completed = lines.findIndex((other, later) => later > index && resumed.test(other));
    if (completed !== -1) return completed;
  }
  return -1;
}
const walWrite = /\bpwrite64\(\d+<[^>]*\/pg_wal\/[0-9A-F]{24}>/;

describe.skipIf(!hasStrace)('the embedded store, traced with strace', () => {
  it('flushes the WAL to stable storage before a write is answered', async () => {
    const { lines, status } = await traceOneWrite({});
    expect(status).toBe(201);
    const written = lines.findIndex((line) => walWrite.test(line));
    const flushed = walFlushCompleted(lines);
    expect(written, `WAL written before the answer:\n${lines.join('\n')}`).toBeGreaterThan(-1);
    expect(flushed, `WAL flushed before the answer:\n${lines.join('\n')}`).toBeGreaterThan(written);
    // The last line is the answer on the socket: the flush came first.
    expect(flushed).toBeLessThan(lines.length - 1);
  }, 180_000);

  it('with EMBEDDED_DURABILITY=off, answers without any flush (the documented opt-out)', async () => {
    const { lines, status } = await traceOneWrite({ EMBEDDED_DURABILITY: 'off' });
    expect(status).toBe(201);
    expect(lines.some((line) => walWrite.test(line))).toBe(true);
    expect(lines.filter((line) => /\b(fdatasync|fsync)\(/.test(line))).toEqual([]);
  }, 180_000);
});
