// An event the client cannot take (larger than it accepts, a field out of range) is refused with a
// message and passed over: the channel goes on delivering what follows, and is never stuck
// re-reading the same event.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RELAY_LIMITS } from '../src/relay/config.js';
import {
  createRelayChannel,
  fakeRelay,
  listenToChannel,
  RunningCli,
  startRelay,
  waitFor,
} from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-relay-bounds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const targets = (cli: RunningCli) =>
  cli.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => (JSON.parse(line) as { target: string }).target);

describe('an event larger than the client accepts', () => {
  it('is refused once with a message, its id passed over, and later requests are delivered', async () => {
    // A relay configured past the bound (an older relay, or one started without the check).
    const relay = await startRelay([], {
      maxBody: 17 * 1024 * 1024,
      buffer: { ...DEFAULT_RELAY_LIMITS.buffer, bytes: 64 * 1024 * 1024 },
    });
    cleanups.push(() => relay.app.close());
    const channel = await createRelayChannel(relay.base);
    const state = join(dir, 'state-big');
    const cli = await listenToChannel(channel, { dir, state }, (cleanup) => cleanups.push(cleanup));
    const big = await fetch(`${channel.sendUrl}/big`, {
      method: 'POST',
      body: Buffer.alloc(13 * 1024 * 1024, 'a'),
    });
    expect(big.status).toBe(200);
    const after = await fetch(`${channel.sendUrl}/after`, { method: 'POST', body: '{}' });
    expect(after.status).toBe(200);
    await waitFor(
      () => targets(cli).includes('/after'),
      () => cli.stderr,
      20_000,
    );
    expect(targets(cli)).toEqual(['/after']);
    expect(cli.stderr).toMatch(/event 1 refused \(larger than the 16 MiB/);
    expect(cli.stderr).not.toMatch(/reconnecting/);
    const stopped = await cli.stop();
    expect(stopped.stderr).not.toMatch(/internal error|\n\s+at /);
    const cursor = readFileSync(
      join(state, 'webhook', 'relay', `${channel.sendUrl.split('/').pop()}.cursor`),
      'utf8',
    );
    expect(cursor.trim()).toBe('2');
  }, 60_000);
});

describe('a relay that accepts every connection and then drops it', () => {
  it('is retried ever more slowly: the ready event alone does not start the backoff over', async () => {
    let connections = 0;
    const server = createServer((_req, res) => {
      connections += 1;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('event: ready\ndata: {"channel":"x","sendUrl":"x","waitForLocal":false}\n\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const port = (server.address() as AddressInfo).port;
    const cli = new RunningCli(
      ['--json', '--port', '0', '--relay', `http://127.0.0.1:${port}/c/AAAAAAAAAAAAAAAAAAAAAA`],
      { cwd: dir, env: { WEBHOOK_RELAY_TOKEN: 'whr_test', HOME: dir, XDG_STATE_HOME: dir } },
    );
    cleanups.push(() => cli.stop());
    await cli.address();
    await waitFor(
      () => connections >= 1,
      () => cli.stderr,
    );
    const first = connections;
    await new Promise((resolve) => setTimeout(resolve, 5000));
    // Doubling from 0.5 s: at most 0.5 + 1 + 2 + 4 s of waits in 5 s; every 0.5 s would be 10+.
    expect(connections - first).toBeLessThanOrEqual(5);
  }, 30_000);
});

describe('a relay event whose receivedAt is no time a clock could show', () => {
  it('is refused field by field, with --save and --json, and the next event is delivered', async () => {
    const wire = (receivedAt: number, target: string) => ({
      receivedAt,
      method: 'POST',
      target,
      headers: [['Content-Type', 'application/json']],
      body: Buffer.from('{}').toString('base64'),
      remote: '203.0.113.9:5000',
      httpVersion: '1.1',
      awaitsAnswer: false,
    });
    const events = [wire(1e300, '/far'), wire(-8.64e15, '/past'), wire(Date.now(), '/now')];
    const relay = await fakeRelay(events, (cleanup) => cleanups.push(cleanup));
    const save = join(dir, 'times.jsonl');
    const cli = new RunningCli(['--json', '--port', '0', '--save', save, '--relay', relay], {
      cwd: dir,
      env: { WEBHOOK_RELAY_TOKEN: 'whr_test', HOME: dir, XDG_STATE_HOME: dir },
    });
    cleanups.push(() => cli.stop());
    await cli.address();
    await waitFor(
      () => targets(cli).includes('/now'),
      () => cli.stderr,
    );
    expect(targets(cli)).toEqual(['/now']);
    expect(cli.stderr).toMatch(/event 1 refused .*receivedAt/);
    expect(cli.stderr).toMatch(/event 2 refused .*receivedAt/);
    expect(cli.stderr).not.toMatch(/internal error|RangeError|reconnecting|\n\s+at /);
    expect(cli.child.exitCode).toBeNull();
    expect(readFileSync(save, 'utf8')).toContain('"/now"');
  });
});
