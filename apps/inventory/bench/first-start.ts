import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptArguments } from './processes.js';

/**
 * `npm run bench:start -w apps/inventory`: what a fresh clone's `npm start` costs. Spawns what the
 * root's `npm start` script runs (node, its flags and scripts/start.mjs, which runs the compiled
 * service) without npm in between, on a new temporary DATA_DIR, polls
 * /health, and reports the time from spawn to the first 200 answer, the CPU the process used until
 * then (user + system, from /proc: on a loaded machine the wall time says little), its peak
 * resident set during the start (VmHWM) and its resident set a few seconds later (idle). Then it
 * stops the service and starts it again on the same folder (a restart). Linux only (/proc).
 *
 * Options: --runs N (default 3: each run is a first start and a restart on a folder of its own),
 * --idle-ms N (default 5000: how long after the first answer the idle resident set is read),
 * --baseline PATH (the root folder of another installed checkout, for instance of main: its runs
 * are interleaved with this one's, so both see the same load).
 */

const REPOSITORY_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLOCK_TICKS_PER_SECOND = 100;

interface StartFigures {
  answerMs: number;
  cpuMs: number;
  hwmMb: number;
  idleRssMb: number;
}

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number`);
  return value;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** User + system CPU of a process so far, in milliseconds (fields 14 and 15 of /proc/PID/stat). */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** A `VmXXX:` line of /proc/PID/status, in MB. */
function memoryMbOf(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function healthAnswers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

function textOption(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function startOnce(root: string, dataDir: string, idleMs: number): Promise<StartFigures> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, startScriptArguments(root), {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      // Generated per run and never printed: the bench only needs the seeding to happen.
      SEED_PASSWORD: `bench-${Math.random().toString(36).slice(2)}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const pid = child.pid;
  if (pid === undefined) throw new Error('the service did not spawn');
  let cpuMs = 0;
  let hwmMb = 0;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the service exited:\n${output.join('')}`);
      if (performance.now() - started > 120_000) throw new Error('no answer in 120 s');
      // Read before the probe: the process's figures at (or just before) its first answer.
      cpuMs = cpuMsOf(pid);
      hwmMb = memoryMbOf(pid, 'VmHWM');
      if (await healthAnswers(`http://127.0.0.1:${port}/health`)) break;
      await sleep(25);
    }
    const answerMs = performance.now() - started;
    cpuMs = cpuMsOf(pid);
    hwmMb = memoryMbOf(pid, 'VmHWM');
    await sleep(idleMs);
    const idleRssMb = memoryMbOf(pid, 'VmRSS');
    return { answerMs, cpuMs, hwmMb, idleRssMb };
  } finally {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}

function row(label: string, figures: StartFigures): string {
  return [
    label.padEnd(20),
    `${(figures.answerMs / 1000).toFixed(2)} s`.padStart(9),
    `${(figures.cpuMs / 1000).toFixed(2)} s`.padStart(9),
    `${figures.hwmMb.toFixed(0)} MB`.padStart(9),
    `${figures.idleRssMb.toFixed(0)} MB`.padStart(9),
  ].join('  ');
}

const runs = option('runs', 3);
const baseline = textOption('baseline');
const builds: Array<[string, string]> = [
  ...(baseline ? [['baseline', resolve(baseline)] as [string, string]] : []),
  ['this', REPOSITORY_ROOT],
];
const idleMs = option('idle-ms', 5000);
const load = loadavg()
  .map((value) => value.toFixed(2))
  .join(' ');
console.log(`${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`);
console.log(`load average before: ${load}`);
console.log(
  `${'start'.padEnd(20)}  ${'answer'.padStart(9)}  ${'CPU'.padStart(9)}  ${'VmHWM'.padStart(9)}  ${'idle RSS'.padStart(9)}`,
);
for (let run = 1; run <= runs; run++) {
  for (const [label, root] of builds) {
    const dataDir = mkdtempSync(join(tmpdir(), 'inventory-first-start-'));
    try {
      console.log(row(`${label} first #${run}`, await startOnce(root, dataDir, idleMs)));
      console.log(row(`${label} restart #${run}`, await startOnce(root, dataDir, idleMs)));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
console.log(
  `load average after: ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);
