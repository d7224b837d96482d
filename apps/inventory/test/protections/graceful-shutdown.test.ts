import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const fixture = join(here, 'fixtures', 'slow-server.ts');
const repoRoot = join(here, '..', '..', '..', '..');

interface Server {
  child: ChildProcess;
  port: number;
  /** Every JSON line so far: our events and pino's log lines. */
  lines: Array<Record<string, unknown>>;
  /** Resolves with the first line matching, past or future. */
  seen: (match: (line: Record<string, unknown>) => boolean) => Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts the fixture under tsx with the workspace packages' sources, the way `npm run inventory` starts main.ts. */
async function startServer(env: Record<string, string> = {}): Promise<Server> {
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', fixture], {
    cwd: repoRoot,
    env: { ...process.env, RATE_LIMIT_MAX: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<{
    match: (line: Record<string, unknown>) => boolean;
    resolve: (line: Record<string, unknown>) => void;
  }> = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (text) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    lines.push(line);
    for (const waiter of waiters.filter((w) => w.match(line))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const seen = (match: (line: Record<string, unknown>) => boolean) => {
    const past = lines.find(match);
    if (past) return Promise.resolve(past);
    return new Promise<Record<string, unknown>>((resolve) => waiters.push({ match, resolve }));
  };
  const listening = await Promise.race([
    seen((line) => line.event === 'listening'),
    exited.then((code) => {
      throw new Error(`fixture exited with ${code} before listening`);
    }),
  ]);
  return { child, port: listening.port as number, lines, seen, exited };
}

const event = (name: string) => (line: Record<string, unknown>) => line.event === name;

function get(port: number, path: string, agent: Agent | false = false) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Resolves with the error code of a new TCP connection attempt, or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

describe('graceful shutdown (a real child process)', () => {
  it('on SIGTERM refuses new connections, finishes the in-flight request, closes the database, exits 0', async () => {
    const server = await startServer();
    // An idle keep-alive connection must not hold the shutdown up (forceCloseConnections: 'idle').
    const keepAlive = new Agent({ keepAlive: true });
    expect((await get(server.port, '/quick', keepAlive)).status).toBe(200);
    const inFlight = get(server.port, '/slow?ms=1000');
    await server.seen(event('slow-started'));

    server.child.kill('SIGTERM');
    await server.seen((line) => line.msg === 'shutting down: finishing in-flight requests');
    // close() stops the listener at once; give the event loop a moment to get there.
    let attempt = await tryConnect(server.port);
    for (let i = 0; i < 20 && attempt === 'connected'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      attempt = await tryConnect(server.port);
    }
    // Refused, or reset when the attempt reached the accept queue just before the listener
    // closed (the kernel then resets what it had queued): either way nobody is served.
    expect(['ECONNREFUSED', 'ECONNRESET']).toContain(attempt);

    const response = await inFlight;
    const answeredAt = Date.now();
    expect(response).toEqual({ status: 200, body: '{"done":true}' });
    expect(await server.exited).toBe(0);
    expect(Date.now() - answeredAt).toBeLessThan(2000);
    const events = server.lines.map((line) => line.event).filter(Boolean);
    expect(events).toEqual(['listening', 'slow-started', 'slow-finished', 'database-closed']);
    expect(server.lines.some((line) => line.msg === 'shutdown complete')).toBe(true);
    keepAlive.destroy();
  });

  it('exits 1 when in-flight requests outlast the timeout', async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT_MS: '300' });
    const inFlight = get(server.port, '/slow?ms=10000').catch((error: Error) => error);
    await server.seen(event('slow-started'));
    const started = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(1);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(server.lines.some((line) => line.msg === 'shutdown timed out: exiting now')).toBe(true);
    expect(server.lines.some((line) => line.event === 'database-closed')).toBe(false);
    await inFlight;
  });

  it('exits 1 at once on a second signal', async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT_MS: '20000' });
    const inFlight = get(server.port, '/slow?ms=10000').catch((error: Error) => error);
    await server.seen(event('slow-started'));
    server.child.kill('SIGTERM');
    await server.seen((line) => line.msg === 'shutting down: finishing in-flight requests');
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(1);
    expect(
      server.lines.some((line) => line.msg === 'second signal during shutdown: exiting now'),
    ).toBe(true);
    await inFlight;
  });
});
