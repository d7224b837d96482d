// A sender that half-closes its connection once its request is written (FIN, as `nc -N`, many raw
// HTTP clients and some proxies do) still gets its answer when the answer takes time, and its
// request is recorded: the capture with --respond-with-forward, a relay channel that waits for
// the local answer, and the relay over Redis (runs when TEST_REDIS_URL is set, in a Redis database
// of its own, 12, so its keys meet no other test's).
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RELAY_LIMITS, parseRelayCommand } from '../src/relay/config.js';
import { RedisRelayStore } from '../src/relay/redis-store.js';
import { buildRelay } from '../src/relay/server.js';
import {
  createRelayChannel,
  listenToChannel,
  RELAY_ADMIN_TOKEN,
  RunningCli,
  startRelay,
  waitFor,
} from './helpers.js';
import { startReceiver } from './receiver.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-half-close-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Writes a whole POST to `port` then half-closes (FIN); resolves with everything answered before
 * the connection closed ('' for nothing).
 */
function halfClosingSender(port: number, path: string, body: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const answer: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), 10_000);
    socket.on('data', (chunk: Buffer) => answer.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(answer).toString('latin1'));
    });
    socket.end(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
}

const statusLine = (answer: string) => answer.split('\r\n')[0] ?? '';
const bodyOf = (answer: string) => answer.slice(answer.indexOf('\r\n\r\n') + 4);

const targets = (cli: RunningCli) =>
  cli.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => (JSON.parse(line) as { target: string }).target);

describe('a sender that half-closes after its request', () => {
  it('gets the forward target answer from the capture with --respond-with-forward', async () => {
    const app = await startReceiver((_req, res) => {
      setTimeout(() => {
        res.writeHead(201, { 'Content-Type': 'text/plain' });
        res.end('from the app');
      }, 50);
    });
    cleanups.push(() => app.close());
    const cli = new RunningCli([
      '--json',
      '--port',
      '0',
      '--forward-to',
      app.url,
      '--respond-with-forward',
    ]);
    cleanups.push(() => cli.stop());
    const port = Number(new URL(await cli.address()).port);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => halfClosingSender(port, `/half/${i}`, `{"i":${i}}`)),
    );
    expect(answers.map(statusLine)).toEqual(Array(10).fill('HTTP/1.1 201 Created'));
    expect(answers.map(bodyOf)).toEqual(Array(10).fill('from the app'));
    await waitFor(
      () => targets(cli).length === 10,
      () => cli.stdout,
    );
    expect(targets(cli).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `/half/${i}`).sort());
  });

  it("gets the local tool's answer through a relay channel that waits for it", async () => {
    const relay = await startRelay();
    cleanups.push(() => relay.app.close());
    const channel = await createRelayChannel(relay.base, { waitForLocal: true });
    const app = await startReceiver((_req, res) => {
      setTimeout(() => {
        res.writeHead(202, { 'Content-Type': 'text/plain' });
        res.end('local answer');
      }, 50);
    });
    cleanups.push(() => app.close());
    const cli = await listenToChannel(
      channel,
      { dir, state: join(dir, 'wait'), args: ['--forward-to', app.url, '--respond-with-forward'] },
      (cleanup) => cleanups.push(cleanup),
    );
    const path = new URL(channel.sendUrl).pathname;
    const answers = [];
    for (let i = 0; i < 5; i += 1) {
      answers.push(await halfClosingSender(relay.port, `${path}/half/${i}`, `{"i":${i}}`));
    }
    expect(answers.map(statusLine)).toEqual(Array(5).fill('HTTP/1.1 202 Accepted'));
    expect(answers.map(bodyOf)).toEqual(Array(5).fill('local answer'));
    await waitFor(
      () => targets(cli).length === 5,
      () => cli.stdout,
    );
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
const ownDatabase = () => {
  const url = new URL(redisUrl ?? '');
  url.pathname = '/12';
  return url.toString();
};

describe.skipIf(!redisUrl)('a half-closing sender, relay over Redis (TEST_REDIS_URL)', () => {
  it('is answered and its request stored, for each of 30 senders', async () => {
    const command = parseRelayCommand(['serve', '--host', '127.0.0.1', '--port', '0'], {
      variables: { WEBHOOK_RELAY_ADMIN_TOKEN: RELAY_ADMIN_TOKEN },
    });
    if (command.kind !== 'relay-serve') throw new Error('not serve');
    const store = await RedisRelayStore.connect(ownDatabase(), command.config.limits.buffer);
    const relay = await buildRelay({ ...command.config, redisUrl: ownDatabase() }, { store });
    await relay.listen({ host: '127.0.0.1', port: 0 });
    cleanups.push(async () => {
      relay.server.closeAllConnections();
      await relay.close();
      await store.close();
    });
    const address = relay.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const channel = await createRelayChannel(`http://127.0.0.1:${port}`);
    // Channels are kept until deleted: this one is removed, so runs leave nothing behind.
    cleanups.push(async () => {
      const cleaner = await RedisRelayStore.connect(ownDatabase(), DEFAULT_RELAY_LIMITS.buffer);
      await cleaner.deleteChannel(channel.id);
      await cleaner.close();
    });
    const path = new URL(channel.sendUrl).pathname;
    const answers = [];
    for (let i = 0; i < 30; i += 1) {
      answers.push(await halfClosingSender(port, `${path}/half/${i}`, `{"i":${i}}`));
    }
    expect(answers.map(statusLine)).toEqual(Array(30).fill('HTTP/1.1 200 OK'));
    const read = await store.readAfter(channel.id, null, 100, Date.now());
    expect(read.events).toHaveLength(30);
  });
});
