import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { CapturedRequest } from '../src/capture/record.js';
import type { StoreSnapshot } from '../src/capture/store.js';
import {
  type AppConfig,
  BUILT_IN_RESPONSE,
  DEFAULT_LIMITS,
  DEFAULT_TIMEOUTS,
} from '../src/config/types.js';
import { parseRelayCommand, type RelayLimits } from '../src/relay/config.js';
import { buildRelay } from '../src/relay/server.js';
import { MemoryRelayStore } from '../src/relay/store.js';

/** The real command, as `npx webhook` runs it. */
export const CLI = fileURLToPath(new URL('../bin/webhook.js', import.meta.url));

let nextSeq = 1;

/** A record as the server would make it, for tests that do not need HTTP. */
export function makeRecord(overrides: Partial<CapturedRequest> = {}): CapturedRequest {
  const body = overrides.body ?? Buffer.alloc(0);
  return {
    seq: nextSeq++,
    receivedAt: Date.UTC(2026, 10, 22, 14, 3, 59, 123),
    method: 'POST',
    target: '/hooks/test',
    path: '/hooks/test',
    url: 'http://127.0.0.1:9080/hooks/test',
    query: [],
    headers: [['Host', '127.0.0.1:9080']],
    size: body.length,
    truncated: false,
    remote: '127.0.0.1:50000',
    httpVersion: '1.1',
    ...overrides,
    body,
  };
}

/** A snapshot holding `records` (oldest first). */
export function snapshotOf(
  records: readonly CapturedRequest[],
  seen = records.length,
): StoreSnapshot {
  return { records, seen, bytes: records.reduce((sum, record) => sum + record.body.length, 0) };
}

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Environment for child CLIs: no CI flag (Ink renders differently under CI). */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.CI;
  delete env.CONTINUOUS_INTEGRATION;
  return env;
}

/** Runs the CLI to completion (it must exit by itself). */
export function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: childEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collect(child);
}

export function collect(child: ChildProcess): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A CLI left running: its output so far, and a way to wait for some of it. */
export class RunningCli {
  stdout = '';
  stderr = '';
  readonly exited: Promise<CliRun>;
  readonly child: ChildProcess;

  constructor(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
    this.child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      env: childEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
    });
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) =>
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr }),
      );
    });
  }

  /** The base URL once the CLI says it listens. */
  async address(): Promise<string> {
    await waitFor(
      () => /listening on (http:\/\/\S+)/.test(this.stderr),
      () => this.stderr,
    );
    return /listening on (http:\/\/\S+)/.exec(this.stderr)?.[1] ?? '';
  }

  stop(): Promise<CliRun> {
    this.child.kill('SIGTERM');
    return this.exited;
  }
}

/** Polls until `condition` holds; fails with `describe()` after `timeoutMs`. */
export async function waitFor(
  condition: () => boolean,
  describe: () => string = () => '',
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting; last state:\n${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The real binary's UI in a detached tmux session of `columns` x `rows`, once it shows its
 * address: `pane()` is the screen as text, `stop()` ends the session.
 */
export async function startUiInTmux(name: string, columns: number, rows: number) {
  const socket = `${name}-${process.pid}`;
  const tmux = (...args: string[]) =>
    execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  tmux(
    'new-session',
    '-d',
    '-x',
    String(columns),
    '-y',
    String(rows),
    `env -u CI TERM=xterm-256color ${process.execPath} ${CLI} --host 127.0.0.1 --port 0`,
  );
  const pane = () => tmux('capture-pane', '-p');
  const stop = () => {
    tmux('kill-server');
  };
  try {
    await waitFor(() => /http:\/\/127\.0\.0\.1:\d+/.test(pane()), pane, 30_000);
  } catch (error) {
    stop();
    throw error;
  }
  const address = /http:\/\/127\.0\.0\.1:\d+/.exec(pane())?.[0] ?? '';
  return { pane, address, stop };
}

/** A config as the CLI would build it without flags or file, on a free port, then `overrides`. */
export function captureConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    configFile: null,
    defaultResponse: BUILT_IN_RESPONSE,
    routes: [],
    limits: DEFAULT_LIMITS,
    timeouts: DEFAULT_TIMEOUTS,
    output: 'lines',
    forward: { defaultTarget: null, timeoutMs: 10_000, respondWithForward: false },
    verify: null,
    rejectInvalid: false,
    replayTo: null,
    saveFile: null,
    loadFile: null,
    relay: null,
    ...overrides,
  };
}

/** Sends bytes exactly as given and resolves with the whole response once the server closes. */
export function sendRaw(port: number, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
    let response = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => {
      response += chunk;
    });
    socket.on('close', () => resolve(response));
    socket.on('error', reject);
  });
}

/** The admin token of the relays tests run in their own process (startRelay). */
export const RELAY_ADMIN_TOKEN = 'relay-admin-token-for-tests-0123456789';

/**
 * `webhook relay serve` with `flags`, run in the test's own process on a free loopback port, over
 * a memory store the test can read (and count appends to) beside what the senders were told.
 */
export async function startRelay(flags: readonly string[] = [], limits: Partial<RelayLimits> = {}) {
  const command = parseRelayCommand(['serve', '--host', '127.0.0.1', '--port', '0', ...flags], {
    variables: { WEBHOOK_RELAY_ADMIN_TOKEN: RELAY_ADMIN_TOKEN },
  });
  if (command.kind !== 'relay-serve') throw new Error(`not a relay serve command: ${flags}`);
  const config = { ...command.config, limits: { ...command.config.limits, ...limits } };
  const store = new MemoryRelayStore(config.limits.buffer, config.limits.maxBufferedBytes);
  const app = await buildRelay(config, { store });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, store, port, base: `http://127.0.0.1:${port}` };
}

/**
 * A listener's stream on a relay at `port`: its status, and the body of a refusal. A stream held
 * open (200) is left open, its closing pushed onto `open` for the test's end.
 */
export function openListenerStream(port: number, id: string, token: string, open: (() => void)[]) {
  return new Promise<{ status: number; body: string }>((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: `/api/channels/${id}/events`,
        headers: { Authorization: `Bearer ${token}` },
        agent: false,
      },
      (res) => {
        if (res.statusCode === 200) {
          open.push(() => res.destroy());
          res.resume();
          resolve({ status: 200, body: '' });
          return;
        }
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', (error) => resolve({ status: 0, body: error.message }));
    req.end();
  });
}

/** A channel on a relay startRelay started; `body` as `POST /api/channels` takes it. */
export async function createRelayChannel(base: string, body: unknown = {}) {
  const response = await fetch(`${base}/api/channels`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${RELAY_ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) {
    throw new Error(`creating a channel: ${response.status} ${await response.text()}`);
  }
  return (await response.json()) as { id: string; sendUrl: string; token: string };
}

/**
 * A hand-written relay serving `events` (wire objects, as the relay's stream writes them) on one
 * channel, then keeping the stream open: what a hostile or broken relay can send. Its send URL;
 * the server is closed by the cleanup given to `onCleanup`.
 */
export async function fakeRelay(
  events: readonly unknown[],
  onCleanup: (cleanup: () => Promise<unknown>) => void,
): Promise<string> {
  const server = createServer((req, res) => {
    if (req.method === 'POST') {
      req.resume();
      res.writeHead(202).end('{}');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: ready\ndata: {"channel":"x","sendUrl":"x","waitForLocal":false}\n\n');
    events.forEach((wire, index) => {
      res.write(`id: ${index + 1}\nevent: request\ndata: ${JSON.stringify(wire)}\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/c/${FAKE_CHANNEL}`;
}

/** The one channel fakeRelay serves. */
export const FAKE_CHANNEL = 'AAAAAAAAAAAAAAAAAAAAAA';

/**
 * `webhook --json --relay <channel>` with the channel's token, its files in `dir` (the cursor
 * under `state`, default `dir`) and `args` added, once the relay has accepted it.
 */
export async function listenToChannel(
  channel: { sendUrl: string; token: string },
  options: { dir: string; state?: string; args?: readonly string[] },
  onCleanup: (cleanup: () => Promise<unknown>) => void,
): Promise<RunningCli> {
  const { dir, state = dir, args = [] } = options;
  const cli = new RunningCli(['--json', '--port', '0', '--relay', channel.sendUrl, ...args], {
    cwd: dir,
    env: { WEBHOOK_RELAY_TOKEN: channel.token, HOME: dir, XDG_STATE_HOME: state },
  });
  onCleanup(() => cli.stop());
  await cli.address();
  await waitFor(
    () => /relay: connected/.test(cli.stderr),
    () => cli.stderr,
  );
  return cli;
}
