// npm run bench:webhook [-- --duration 10 --connections 50]
//
// Requests per second the capture server answers (and records) with the UI drawing in a
// pseudo-terminal, with --no-tui, and with --no-tui forwarding every request to a second bare
// server (the user's app), each next to a bare node:http server that only answers 200,
// all measured in the same run on the same machine; then the peak resident memory with the
// retention limits full. Prints a table and writes JSON to bench/results/.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pty from '@lydell/node-pty';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const CLI = fileURLToPath(new URL('../bin/webhook.js', import.meta.url));
const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));
const BODY = JSON.stringify({ event: 'push', repository: 'netops/suite', commits: [1, 2, 3] });

interface Target {
  readonly url: string;
  readonly pid: number;
  /** Requests the target says it recorded, when it can tell. */
  recorded(): number | null;
  stop(): Promise<void>;
}

/** A bare node:http server in its own process, answering 200 to everything. */
async function bareServer(): Promise<Target & { served(): number | null }> {
  // On SIGTERM it prints how many requests it answered and on how many connections.
  const source = `
    let served = 0, connections = 0;
    const server = require('node:http').createServer((req, res) => {
      req.resume();
      req.on('end', () => { served += 1; res.end('{"status":"ok"}'); });
    });
    server.on('connection', () => { connections += 1; });
    process.on('SIGTERM', () => { console.log('served ' + served + ' on ' + connections); process.exit(0); });
    server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = await lineMatching(child, 'stdout', /listening on (http:\/\/\S+)/);
  return {
    url,
    pid: child.pid ?? 0,
    recorded: () => null,
    stop: () => stopChild(child),
    served: () => {
      const match = /served (\d+) on (\d+)/.exec(output);
      return match ? Number(match[1]) : null;
    },
  };
}

/** `webhook --no-tui`, its lines counted as they come. */
async function headless(extraArgs: string[] = []): Promise<Target> {
  const child = spawn(process.execPath, [CLI, '--no-tui', '--port', '0', ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let lines = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    for (const byte of chunk) if (byte === 10) lines += 1;
  });
  const url = await lineMatching(child, 'stderr', /listening on (http:\/\/\S+)/);
  return { url, pid: child.pid ?? 0, recorded: () => lines, stop: () => stopChild(child) };
}

/** The full UI in a pseudo-terminal; the count is read off its status bar. */
async function withUi(extraArgs: string[] = []): Promise<Target> {
  const env = { ...process.env } as Record<string, string>;
  delete env.CI;
  const terminal = pty.spawn(process.execPath, [CLI, '--port', '0', ...extraArgs], {
    name: 'xterm-256color',
    cols: 120,
    rows: 40,
    env,
  });
  let tail = '';
  terminal.onData((data) => {
    tail = (tail + data).slice(-20_000);
  });
  const started = Date.now();
  while (!/http:\/\/127\.0\.0\.1:\d+/.test(tail)) {
    if (Date.now() - started > 30_000) throw new Error('the UI did not start');
    await sleep(50);
  }
  const url = /http:\/\/127\.0\.0\.1:\d+/.exec(tail)?.[0] ?? '';
  return {
    url,
    pid: terminal.pid,
    recorded: () => {
      const counts = [...tail.matchAll(/(\d+) kept \/ (\d+) seen/g)].at(-1);
      return counts ? Number(counts[2]) : null;
    },
    stop: async () => {
      const exited = new Promise<void>((resolve) => terminal.onExit(() => resolve()));
      terminal.write('q');
      await Promise.race([exited, sleep(5000)]);
    },
  };
}

async function load(url: string, body = BODY) {
  const result = await autocannon({
    url: `${url}/hooks/bench?source=autocannon`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections,
    duration,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyP99Ms: result.latency.p99,
    completed: result['2xx'],
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

/** Peak resident set (VmHWM) of a process, in MiB; Linux only. */
function peakRssMiB(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
    return Number.isFinite(kib) ? Math.round(kib / 1024) : null;
  } catch {
    return null;
  }
}

async function throughput(name: string, start: () => Promise<Target>) {
  const target = await start();
  const measured = await load(target.url);
  await sleep(300); // the last frame or line
  const recorded = target.recorded();
  await target.stop();
  return { name, ...measured, recorded };
}

/** Fills the store past its limits with large bodies and reports the peak RSS. */
async function memory(name: string, start: (args: string[]) => Promise<Target>) {
  const args = ['--max-requests', '1000', '--max-memory', '256MiB'];
  const target = await start(args);
  const body = 'x'.repeat(512 * 1024);
  const result = await autocannon({
    url: `${target.url}/big`,
    method: 'POST',
    body,
    connections: 10,
    amount: 1500, // 750 MiB sent: the 256 MiB limit is reached and cycled
  });
  await sleep(500);
  const peak = peakRssMiB(target.pid);
  await target.stop();
  return { name, limits: args.join(' '), sentMiB: 750, completed: result['2xx'], peakRssMiB: peak };
}

function lineMatching(child: ChildProcess, stream: 'stdout' | 'stderr', pattern: RegExp) {
  return new Promise<string>((resolve, reject) => {
    let text = '';
    child[stream]?.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const match = pattern.exec(text);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before listening: ${text}`)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const rows: Awaited<ReturnType<typeof throughput>>[] = [];
let forwarded: number | null = null;
rows.push(await throughput('bare node:http (answers 200)', bareServer));
rows.push(await throughput('webhook --no-tui', () => headless()));
// Forwarding on: every captured request is also sent to an app (a bare server of its own);
// `forwarded` counts the answers the app gave, as --json would show them.
{
  const app = await bareServer();
  const row = await throughput('webhook --no-tui --forward-to (bare app)', () =>
    headless(['--forward-to', app.url]),
  );
  await app.stop();
  // Requests the app received: the ones not refused as `queue-full` (and sent before the stop).
  forwarded = app.served();
  rows.push(row);
}
rows.push(await throughput('webhook with the UI in a pty', () => withUi()));
const memoryRows = [
  await memory('webhook --no-tui', (args) => headless(args)),
  await memory('webhook with the UI in a pty', (args) => withUi(args)),
];

console.log(
  `\n${duration} s per run, ${connections} connections, ${BODY.length}-byte JSON bodies, ` +
    `Node ${process.version}, ${cpus().length} CPUs\n`,
);
console.table(
  rows.map((row) => ({
    target: row.name,
    'req/s': row.requestsPerSecond,
    'p99 ms': row.latencyP99Ms,
    answered: row.completed,
    recorded: row.recorded ?? '-',
    forwarded: row.name.includes('--forward-to') ? (forwarded ?? '?') : '-',
    errors: row.errors,
    'vs bare': `${((row.requestsPerSecond / (rows[0]?.requestsPerSecond ?? 1)) * 100).toFixed(0)}%`,
  })),
);
console.table(
  memoryRows.map((row) => ({
    target: row.name,
    limits: row.limits,
    'sent MiB': row.sentMiB,
    answered: row.completed,
    'peak RSS MiB': row.peakRssMiB ?? 'n/a',
  })),
);

mkdirSync(RESULTS, { recursive: true });
const file = `${RESULTS}throughput-${new Date().toISOString().replaceAll(':', '-')}.json`;
writeFileSync(
  file,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      durationSeconds: duration,
      connections,
      bodyBytes: BODY.length,
      throughput: rows,
      forwardedToApp: forwarded,
      memory: memoryRows,
    },
    null,
    2,
  )}\n`,
);
console.log(`\nwritten to ${file}`);
