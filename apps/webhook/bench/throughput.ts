// npm run bench:webhook [-- --requests 20000 --rounds 3 --connections 50 --skip-memory]
//
// The capture rate, in ONE run, of: a bare node:http server (the baseline), `webhook --no-tui`
// and `webhook --json` writing to a file, the UI drawing in a real pseudo-terminal (while keys
// are pressed and timed until the screen shows their effect), and `--no-tui --forward-to` a real
// receiving server. Each webhook figure is a ratio to the bare server measured in the same
// round, right before it; the rounds alternate so a machine shared with other work loads them
// alike, and the median ratio is reported. Every request sent must be seen and kept (and, with
// forwarding, received by the app): the bench fails otherwise. It also reports the CPU time each
// process spent per request (from /proc), which does not depend on what else the machine runs.
// Then the peak resident memory with the retention limits full. Prints tables, writes JSON to
// bench/results/ (git-ignored).
import { type ChildProcess, spawn } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pty from '@lydell/node-pty';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    warmup: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    'skip-memory': { type: 'boolean', default: false },
    /** Only the targets whose name contains this (the bare server always runs). */
    only: { type: 'string', default: '' },
    /** Another build's bin/webhook.js (e.g. main's): its targets run too, marked `(before)`. */
    before: { type: 'string' },
    /** Node flags for the webhook processes, e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles`. */
    'node-args': { type: 'string', default: '' },
  },
});
const REQUESTS = Number(values.requests);
const WARMUP = Number(values.warmup);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = Number(values.connections);
const SENT = WARMUP + REQUESTS;
const NODE_ARGS = (values['node-args'] ?? '').split(' ').filter(Boolean);
const wanted = (name: string) => name.includes(values.only ?? '');
const CLI = fileURLToPath(new URL('../bin/webhook.js', import.meta.url));
const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));
const SCRATCH = join(tmpdir(), `webhook-bench-${process.pid}`);
const BODY = JSON.stringify({ event: 'push', repository: 'netops/suite', commits: [1, 2, 3] });
/** Every request kept, so kept = seen = sent can be checked. */
const KEEP_ALL = ['--max-requests', String(SENT + 10)];
/** Ticks per second of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

interface Target {
  readonly url: string;
  readonly pid: number;
  /** Requests the target says it holds: seen and kept (null when it cannot tell). */
  counts(): Promise<{ seen: number; kept: number } | null>;
  stop(): Promise<void>;
}

/**
 * A bare node:http server in its own process: reads the body and answers what webhook answers by
 * default (200, application/json, `{"status":"ok"}`). Prints its count on SIGTERM.
 */
async function bareServer(): Promise<
  Target & { served(): number | null; connections(): number | null }
> {
  const source = `
    let served = 0, connections = 0;
    const server = require('node:http').createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        served += 1;
        res.setHeader('Content-Type', 'application/json');
        res.end('{"status":"ok"}');
      });
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
  const served = () => {
    const match = /served (\d+)/.exec(output);
    return match ? Number(match[1]) : null;
  };
  const connections = () => {
    const match = /served \d+ on (\d+)/.exec(output);
    return match ? Number(match[1]) : null;
  };
  return {
    url,
    pid: child.pid ?? 0,
    counts: async () => null,
    stop: () => stopChild(child),
    served,
    connections,
  };
}

/** `webhook --no-tui` or `--json` with stdout to a file; seen and kept read from the file. */
async function headless(name: string, args: string[], cli = CLI): Promise<Target> {
  const file = join(SCRATCH, `${name}.out`);
  const fd = openSync(file, 'w');
  const child = spawn(process.execPath, [...NODE_ARGS, cli, '--port', '0', ...KEEP_ALL, ...args], {
    stdio: ['ignore', fd, 'pipe'],
  });
  closeSync(fd);
  const url = await lineMatching(child, 'stderr', /listening on (http:\/\/\S+)/);
  const json = args.includes('--json');
  return {
    url,
    pid: child.pid ?? 0,
    async counts() {
      const text = readFileSync(file, 'utf8');
      const lines = text.split('\n').filter((line) => line !== '');
      if (!json) return { seen: lines.length, kept: lines.length };
      // Every line a record of its own: the seqs are 1..n, none missing, none twice.
      const seqs = new Set(lines.map((line) => (JSON.parse(line) as { seq: number }).seq));
      return { seen: Math.max(0, ...seqs), kept: seqs.size };
    },
    stop: () => stopChild(child),
  };
}

/** What a key press must make the screen show: its marker, in the pty's output. */
const KEY_EFFECTS = [
  { key: 'v', shows: 'body: raw' },
  { key: 'v', shows: 'body: hex' },
  { key: 'v', shows: '"event": "push"' }, // back to pretty: the body re-indented
] as const;

interface UiTarget extends Target {
  /** Presses keys (`v`, cycling the body view) until `done`, timing each to its effect. */
  probeKeys(done: () => boolean): Promise<number[]>;
  /** Frames drawn since start (status bars in the output). */
  frames(): number;
}

/** The full UI in a 120 × 40 pseudo-terminal; counts read off its status bar. */
async function withUi(args: string[], cli = CLI): Promise<UiTarget> {
  const env = { ...process.env } as Record<string, string>;
  delete env.CI;
  const terminal = pty.spawn(
    process.execPath,
    [...NODE_ARGS, cli, '--port', '0', ...KEEP_ALL, ...args],
    {
      name: 'xterm-256color',
      cols: 120,
      rows: 40,
      env,
    },
  );
  let tail = '';
  let frames = 0;
  /** A press waiting for its effect on screen. */
  let waiting: { shows: string; seen: string; resolve: () => void } | null = null;
  terminal.onData((data) => {
    tail = (tail + data).slice(-8_000);
    for (let at = data.indexOf(' seen'); at !== -1; at = data.indexOf(' seen', at + 1)) frames += 1;
    if (waiting) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing escape sequences
      waiting.seen = (waiting.seen + data).replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').slice(-4_000);
      if (waiting.seen.includes(waiting.shows)) {
        const press = waiting;
        waiting = null;
        press.resolve();
      }
    }
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
    frames: () => frames,
    async counts() {
      const last = [...tail.matchAll(/(\d+) kept \/ (\d+) seen/g)].at(-1);
      return last ? { kept: Number(last[1]), seen: Number(last[2]) } : null;
    },
    async probeKeys(done) {
      const latencies: number[] = [];
      for (let press = 0; !done(); press += 1) {
        const effect = KEY_EFFECTS[press % KEY_EFFECTS.length];
        if (!effect) break;
        const shown = new Promise<void>((resolve) => {
          waiting = { shows: effect.shows, seen: '', resolve };
        });
        const sentAt = performance.now();
        terminal.write(effect.key);
        const outcome = await Promise.race([shown.then(() => 'shown'), sleep(5_000)]);
        if (outcome !== 'shown')
          throw new Error(`"${effect.shows}" not on screen 5 s after ${effect.key}`);
        latencies.push(performance.now() - sentAt);
        await sleep(60 + Math.random() * 60); // presses at random phases of the frame cycle
      }
      return latencies;
    },
    stop: async () => {
      const exited = new Promise<void>((resolve) => terminal.onExit(() => resolve()));
      terminal.write('q');
      await Promise.race([exited, sleep(5000)]);
    },
  };
}

/** CPU seconds (user + system) a process has used so far; Linux only. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/**
 * autocannon's result (its instance is a thenable, not a Promise); `onResponse` is called on every
 * answer, so the caller can time the last one (with `amount`, autocannon only notices the end at
 * its next one-second tick: its `duration`, and the moment it resolves, are whole seconds).
 */
function flood(url: string, amount: number, onResponse?: () => void): Promise<autocannon.Result> {
  // Its typings know the promise only; the same object also emits each response.
  const instance = autocannon({
    url: `${url}/hooks/bench?source=autocannon`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: BODY,
    connections: CONNECTIONS,
    amount,
  }) as Promise<autocannon.Result> & Pick<EventEmitter, 'on'>;
  if (onResponse) instance.on('response', onResponse);
  return Promise.resolve(instance);
}

interface Measured {
  readonly name: string;
  readonly round: number;
  readonly requestsPerSecond: number;
  readonly latencyP99Ms: number;
  /** CPU µs per measured request: the target's process, and the receiving app's with forwarding. */
  readonly cpuUsPerRequest: number;
  readonly appCpuUsPerRequest?: number;
  readonly sent: number;
  readonly answered: number;
  readonly seen: number | null;
  readonly kept: number | null;
  readonly forwarded?: number | null;
  /** Connections the forwarding app accepted (the forward pool's, for every request). */
  readonly forwardConnections?: number | null;
  readonly keyLatenciesMs?: number[];
  readonly framesPerSecond?: number;
  readonly loadAverage: number;
}

/** Warms the target up, floods it with REQUESTS, then waits until it holds all it was sent. */
async function measure(
  name: string,
  round: number,
  target: Target,
  extra: { app?: { pid: number }; ui?: UiTarget } = {},
): Promise<Measured> {
  await flood(target.url, WARMUP);
  const cpuBefore = cpuSeconds(target.pid);
  const appBefore = extra.app ? cpuSeconds(extra.app.pid) : 0;
  const framesBefore = extra.ui?.frames() ?? 0;
  let flooding = true;
  const started = performance.now();
  let lastAnswer = started;
  let answers = 0;
  const running = flood(target.url, REQUESTS, () => {
    lastAnswer = performance.now();
    answers += 1;
    // Keys are timed only while the flood lasts.
    if (answers >= REQUESTS) flooding = false;
  }).finally(() => {
    flooding = false;
  });
  const keys = extra.ui?.probeKeys(() => !flooding);
  const result = await running;
  const keyLatenciesMs = await keys;
  // From the first request to the last answer (not autocannon's whole-second `duration`).
  const seconds = (lastAnswer - started) / 1000;
  const cpu = cpuSeconds(target.pid) - cpuBefore;
  const appCpu = extra.app ? cpuSeconds(extra.app.pid) - appBefore : 0;
  const frames = (extra.ui?.frames() ?? 0) - framesBefore;
  // Records complete once answered (and, forwarding, once the app answered): wait for the count.
  let counts = await target.counts();
  for (let waited = 0; counts && counts.seen < SENT && waited < 10_000; waited += 100) {
    await sleep(100);
    counts = await target.counts();
  }
  return {
    name,
    round,
    requestsPerSecond: Math.round(REQUESTS / seconds),
    latencyP99Ms: result.latency.p99,
    cpuUsPerRequest: Math.round((cpu / REQUESTS) * 1e6),
    ...(extra.app ? { appCpuUsPerRequest: Math.round((appCpu / REQUESTS) * 1e6) } : {}),
    sent: SENT,
    answered: WARMUP + result['2xx'],
    seen: counts?.seen ?? null,
    kept: counts?.kept ?? null,
    ...(keyLatenciesMs ? { keyLatenciesMs } : {}),
    ...(extra.ui ? { framesPerSecond: Math.round(frames / seconds) } : {}),
    loadAverage: loadavg()[0] ?? 0,
  };
}

async function run<T extends Target>(
  start: () => Promise<T>,
  work: (target: T) => Promise<Measured>,
) {
  const target = await start();
  try {
    return await work(target);
  } finally {
    await target.stop();
  }
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
    if (child.exitCode !== null) resolve();
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function median(numbers: readonly number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function percentile(numbers: readonly number[], p: number): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
  );
}

const RELAY_ADMIN_TOKEN = 'bench-relay-admin-token-0123456789';

/**
 * The relay path, each in its own process: `webhook relay serve` (its rate limits and buffer
 * raised so the flood is neither refused nor trimmed) and `webhook --relay <send URL> --json`
 * with stdout to a file. The flood goes to the send URL; `counts` reads the client's file.
 */
async function relayPath(
  name: string,
  clientArgs: string[] = ['--json'],
  cli = CLI,
): Promise<Target & { clientPid: number }> {
  const relay = spawn(
    process.execPath,
    [
      ...NODE_ARGS,
      cli,
      'relay',
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--log-level',
      'warn',
      '--channel-rate',
      '100000',
      '--address-rate',
      '100000',
      '--buffer-events',
      String(SENT * 2),
      '--buffer-bytes',
      '1GiB',
      '--max-buffered',
      '1GiB',
    ],
    {
      env: { ...process.env, WEBHOOK_RELAY_ADMIN_TOKEN: RELAY_ADMIN_TOKEN },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const base = await lineMatching(relay, 'stderr', /listening on (http:\/\/\S+)/);
  const created = (await (
    await fetch(`${base}/api/channels`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${RELAY_ADMIN_TOKEN}` },
    })
  ).json()) as { sendUrl: string; token: string };
  const file = join(SCRATCH, `${name}.out`);
  const fd = openSync(file, 'w');
  const client = spawn(
    process.execPath,
    [...NODE_ARGS, cli, '--relay', created.sendUrl, '--port', '0', ...KEEP_ALL, ...clientArgs],
    {
      env: {
        ...process.env,
        WEBHOOK_RELAY_TOKEN: created.token,
        XDG_STATE_HOME: join(SCRATCH, `state-${name}`),
      },
      stdio: ['ignore', fd, 'pipe'],
    },
  );
  closeSync(fd);
  await lineMatching(client, 'stderr', /(relay: connected)/);
  return {
    url: created.sendUrl,
    pid: relay.pid ?? 0,
    clientPid: client.pid ?? 0,
    async counts() {
      const lines = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('{'));
      return { seen: lines.length, kept: lines.length };
    },
    async stop() {
      await stopChild(client);
      await stopChild(relay);
    },
  };
}

/**
 * Relay → client → capture: flooded at the send URL, timed until the client's capture holds every
 * request (not until the relay answered: it answers before the client has the request).
 */
async function measureRelay(round: number, target: Target & { clientPid: number }) {
  await flood(target.url, WARMUP);
  for (
    let waited = 0;
    ((await target.counts())?.seen ?? 0) < WARMUP && waited < 60_000;
    waited += 50
  ) {
    await sleep(50);
  }
  const cpuBefore = cpuSeconds(target.pid);
  const clientBefore = cpuSeconds(target.clientPid);
  const started = performance.now();
  const result = await flood(target.url, REQUESTS);
  let counts = await target.counts();
  while ((counts?.seen ?? 0) < SENT && performance.now() - started < 120_000) {
    await sleep(20);
    counts = await target.counts();
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    name: RELAY,
    round,
    requestsPerSecond: Math.round(REQUESTS / seconds),
    latencyP99Ms: result.latency.p99,
    cpuUsPerRequest: Math.round(((cpuSeconds(target.pid) - cpuBefore) / REQUESTS) * 1e6),
    appCpuUsPerRequest: Math.round(
      ((cpuSeconds(target.clientPid) - clientBefore) / REQUESTS) * 1e6,
    ),
    sent: SENT,
    answered: WARMUP + result['2xx'],
    seen: counts?.seen ?? null,
    kept: counts?.kept ?? null,
    loadAverage: loadavg()[0] ?? 0,
  } satisfies Measured;
}

/**
 * Latency one request at a time: from sending to the forwarded copy reaching an app in this
 * process, directly (`webhook --forward-to app`) and through the relay (`webhook --relay …
 * --forward-to app`). The difference is what the relay adds.
 */
async function deliveryLatencies(samples: number) {
  const arrivals = new Map<string, number>();
  const { createServer } = await import('node:http');
  const app = createServer((req, res) => {
    arrivals.set(String(req.headers['x-bench-id']), performance.now());
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const address = app.address();
  const appUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const paths = {
    direct: () => headless('latency-direct', ['--no-tui', '--forward-to', appUrl]),
    relay: () => relayPath('latency-relay', ['--no-tui', '--forward-to', appUrl]),
  };
  const result: Record<string, number[]> = {};
  for (const [name, start] of Object.entries(paths)) {
    const target = await start();
    const times: number[] = [];
    try {
      for (let i = 0; i < samples; i += 1) {
        const id = `${name}-${i}`;
        const sent = performance.now();
        const answer = await fetch(`${target.url}/latency`, {
          method: 'POST',
          headers: { 'X-Bench-Id': id, 'Content-Type': 'application/json' },
          body: BODY,
        });
        await answer.arrayBuffer();
        while (!arrivals.has(id) && performance.now() - sent < 10_000) await sleep(1);
        times.push((arrivals.get(id) ?? Number.NaN) - sent);
      }
    } finally {
      await target.stop();
    }
    result[name] = times.slice(Math.min(20, samples / 10));
  }
  app.close();
  return result as { direct: number[]; relay: number[] };
}

const BARE = 'bare node:http';
const RELAY = 'webhook --relay (relay → client → capture)';
/** Each measured target with its target ratio. */
const TARGETS = [
  { name: 'webhook --no-tui', goal: 0.8 },
  { name: 'webhook --json > file', goal: 0.8 },
  { name: 'webhook, UI in a pty', goal: 0.6 },
  { name: 'webhook --no-tui --forward-to app', goal: 0.5 },
  { name: RELAY, goal: 0.3 },
] as const;

/** This build, and the one given with --before (same targets, same round). */
const VARIANTS = [
  { suffix: '', cli: CLI },
  ...(values.before ? [{ suffix: ' (before)', cli: values.before }] : []),
];

mkdirSync(SCRATCH, { recursive: true });
const uptimeBefore = readFileSync('/proc/loadavg', 'utf8').trim();
const rows: Measured[] = [];
for (let round = 1; round <= ROUNDS; round += 1) {
  // The baseline first in every round, so each ratio compares figures taken minutes apart at most.
  rows.push(await run(bareServer, (target) => measure(BARE, round, target)));
  for (const { suffix, cli } of VARIANTS) {
    if (wanted('webhook --no-tui')) {
      rows.push(
        await run(
          () => headless('lines', ['--no-tui'], cli),
          (target) => measure(`webhook --no-tui${suffix}`, round, target),
        ),
      );
    }
    if (wanted('webhook --json > file')) {
      rows.push(
        await run(
          () => headless('json', ['--json'], cli),
          (target) => measure(`webhook --json > file${suffix}`, round, target),
        ),
      );
    }
    if (wanted('webhook, UI in a pty')) {
      rows.push(
        await run(
          () => withUi([], cli),
          (ui) => measure(`webhook, UI in a pty${suffix}`, round, ui, { ui }),
        ),
      );
    }
    if (wanted(RELAY) && suffix === '') {
      rows.push(
        await run(
          () => relayPath('relay'),
          (target) => measureRelay(round, target),
        ),
      );
    }
    if (wanted('webhook --no-tui --forward-to app')) {
      const app = await bareServer();
      const forwarding = await run(
        () => headless('forward', ['--no-tui', '--forward-to', app.url], cli),
        (target) => measure(`webhook --no-tui --forward-to app${suffix}`, round, target, { app }),
      );
      await app.stop();
      rows.push({
        ...forwarding,
        forwarded: app.served(),
        forwardConnections: app.connections(),
      });
    }
  }
}
const latencies = wanted(RELAY) ? await deliveryLatencies(Math.max(100, REQUESTS / 100)) : null;
const uptimeAfter = readFileSync('/proc/loadavg', 'utf8').trim();

const memoryRows = values['skip-memory']
  ? []
  : [
      await memory('webhook --no-tui', (args) => headless('memory', ['--no-tui', ...args])),
      await memory('webhook, UI in a pty', (args) => withUi(args)),
    ];
rmSync(SCRATCH, { recursive: true, force: true });

// Lost requests make every other figure meaningless: checked for every run of every target.
const lost = rows.filter(
  (row) =>
    row.answered !== row.sent ||
    (row.name !== BARE && (row.seen !== row.sent || row.kept !== row.sent)) ||
    (row.forwarded !== undefined && row.forwarded !== row.sent),
);

const bareOf = (round: number) => rows.find((row) => row.name === BARE && row.round === round);
const ratio = (row: Measured) =>
  row.requestsPerSecond / (bareOf(row.round)?.requestsPerSecond ?? 1);
const directOf = (round: number) =>
  rows.find((row) => row.name === 'webhook --json > file' && row.round === round);
/** The relay path against direct local capture (`webhook --json > file`) of the same round. */
const relayRatios = rows
  .filter((row) => row.name === RELAY)
  .map((row) => row.requestsPerSecond / (directOf(row.round)?.requestsPerSecond ?? Number.NaN));
const names = TARGETS.map((target) => target.name).filter(wanted);
const summary = [
  BARE,
  ...names.flatMap((name) => VARIANTS.map(({ suffix }) => `${name}${suffix}`)),
].map((name) => {
  const runs = rows.filter((row) => row.name === name);
  const goal = TARGETS.find((target) => target.name === name)?.goal;
  const ratios = runs.map(ratio);
  const keys = runs.flatMap((row) => row.keyLatenciesMs ?? []);
  return {
    target: name,
    'req/s (median)': Math.round(median(runs.map((row) => row.requestsPerSecond))),
    'vs bare (median)': median(ratios).toFixed(2),
    'vs bare (each round)': ratios.map((value) => value.toFixed(2)).join(' '),
    goal: goal === undefined ? '' : `≥ ${goal}`,
    met: goal === undefined ? '' : median(ratios) >= goal ? 'yes' : 'NO',
    'CPU µs/req': Math.round(median(runs.map((row) => row.cpuUsPerRequest))),
    'p99 ms': median(runs.map((row) => row.latencyP99Ms)),
    'seen = kept = sent':
      name === BARE ? '' : runs.every((row) => !lost.includes(row)) ? 'yes' : 'NO',
    ...(keys.length > 0
      ? {
          'keys p50/p95/max ms': `${percentile(keys, 50).toFixed(0)}/${percentile(keys, 95).toFixed(0)}/${Math.max(...keys).toFixed(0)} (${keys.length})`,
        }
      : {}),
  };
});

console.log(
  `\n${ROUNDS} rounds, ${REQUESTS} requests each (after ${WARMUP} to warm up), ${CONNECTIONS} connections, ` +
    `${BODY.length}-byte JSON bodies; Node ${process.version}, ${cpus().length} CPUs; ` +
    `load average ${uptimeBefore.split(' ').slice(0, 3).join(' ')} before, ${uptimeAfter.split(' ').slice(0, 3).join(' ')} after\n`,
);
console.table(summary);
console.table(
  rows.map((row) => ({
    round: row.round,
    target: row.name,
    'req/s': row.requestsPerSecond,
    'vs bare': ratio(row).toFixed(2),
    'CPU µs/req': row.cpuUsPerRequest,
    'app CPU µs/req': row.appCpuUsPerRequest ?? '',
    sent: row.sent,
    answered: row.answered,
    seen: row.seen ?? '',
    kept: row.kept ?? '',
    forwarded: row.forwarded ?? '',
    'fwd conns': row.forwardConnections ?? '',
    'frames/s': row.framesPerSecond ?? '',
    load: row.loadAverage.toFixed(1),
  })),
);
if (latencies) {
  const added = (p: number) => percentile(latencies.relay, p) - percentile(latencies.direct, p);
  console.log(
    `\nrelay → client → capture: ${relayRatios.map((value) => value.toFixed(2)).join(' ')} of direct capture ` +
      `(webhook --json > file) by round, median ${median(relayRatios).toFixed(2)}; ` +
      `delivery to a forwarded app one request at a time (${latencies.relay.length} samples), ms:`,
  );
  console.table(
    [50, 99].map((p) => ({
      percentile: `p${p}`,
      direct: percentile(latencies.direct, p).toFixed(1),
      'through the relay': percentile(latencies.relay, p).toFixed(1),
      'added by the relay': added(p).toFixed(1),
    })),
  );
}
if (memoryRows.length > 0) {
  console.table(
    memoryRows.map((row) => ({
      target: row.name,
      limits: row.limits,
      'sent MiB': row.sentMiB,
      answered: row.completed,
      'peak RSS MiB': row.peakRssMiB ?? 'n/a',
    })),
  );
}

mkdirSync(RESULTS, { recursive: true });
const file = `${RESULTS}throughput-${new Date().toISOString().replaceAll(':', '-')}.json`;
writeFileSync(
  file,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      loadAverage: { before: uptimeBefore, after: uptimeAfter },
      requests: REQUESTS,
      warmup: WARMUP,
      connections: CONNECTIONS,
      bodyBytes: BODY.length,
      summary,
      runs: rows,
      memory: memoryRows,
      relay: latencies ? { vsDirectCapture: relayRatios, latenciesMs: latencies } : null,
    },
    null,
    2,
  )}\n`,
);
console.log(`\nwritten to ${file}`);
if (lost.length > 0) {
  console.error(
    `\nrequests lost (seen, kept or forwarded differ from sent): ${lost.map((row) => `${row.name} round ${row.round}`).join(', ')}`,
  );
  process.exitCode = 1;
}
