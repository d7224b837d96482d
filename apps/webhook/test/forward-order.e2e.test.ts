// --forward-concurrency 1: forwards reach the app in capture order, one after another, captured
// locally or through a relay (whose client takes events in batches), even when the app answers
// some slower than others. More at once (64 by default) are sent in order but may overtake.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRelayChannel, listenToChannel, RunningCli, runCli, startRelay } from './helpers.js';
import { startReceiver } from './receiver.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-forward-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An app answering each request after 0–15 ms (a pseudo-random, repeatable spread). */
async function unevenApp() {
  let concurrent = 0;
  let mostConcurrent = 0;
  let n = 0;
  const app = await startReceiver((_req, res) => {
    concurrent += 1;
    mostConcurrent = Math.max(mostConcurrent, concurrent);
    n += 1;
    setTimeout(
      () => {
        concurrent -= 1;
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('ok');
      },
      (n * 7919) % 16,
    );
  });
  cleanups.push(() => app.close());
  return { app, mostConcurrent: () => mostConcurrent };
}

/** Sends `count` POSTs one after another (each once the previous was answered). */
async function sendInTurn(base: string, count: number) {
  for (let i = 0; i < count; i += 1) {
    const answer = await fetch(`${base}/order/${i}`, { method: 'POST', body: String(i) });
    await answer.arrayBuffer();
  }
}

const inOrder = (count: number) => Array.from({ length: count }, (_, i) => `/order/${i}`);

const arrived = async (urls: () => string[], count: number) => {
  const deadline = Date.now() + 20_000;
  while (urls().length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return urls();
};

describe('--forward-concurrency 1: forwards reach the app in capture order', () => {
  it('captured locally: 60 requests sent in turn arrive in turn', async () => {
    const { app, mostConcurrent } = await unevenApp();
    const cli = new RunningCli([
      '--no-tui',
      '--port',
      '0',
      '--forward-to',
      app.url,
      '--forward-concurrency',
      '1',
    ]);
    cleanups.push(() => cli.stop());
    await sendInTurn(await cli.address(), 60);
    const urls = await arrived(() => app.received.map((seen) => seen.url), 60);
    expect(urls).toEqual(inOrder(60));
    expect(mostConcurrent()).toBe(1);
  });

  it('through a relay: 60 requests sent in turn arrive in turn', async () => {
    const relay = await startRelay();
    cleanups.push(() => relay.app.close());
    const channel = await createRelayChannel(relay.base);
    const { app } = await unevenApp();
    await listenToChannel(
      channel,
      {
        dir,
        state: join(dir, 'relay'),
        args: ['--forward-to', app.url, '--forward-concurrency', '1'],
      },
      (cleanup) => cleanups.push(cleanup),
    );
    await sendInTurn(channel.sendUrl, 60);
    const urls = await arrived(() => app.received.map((seen) => seen.url), 60);
    expect(urls).toEqual(inOrder(60));
  });

  it('--forward-concurrency 8 sends up to 8 at once; the flag is checked', async () => {
    const { app, mostConcurrent } = await unevenApp();
    const cli = new RunningCli([
      '--no-tui',
      '--port',
      '0',
      '--forward-to',
      app.url,
      '--forward-concurrency',
      '8',
    ]);
    cleanups.push(() => cli.stop());
    const base = await cli.address();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${base}/order/${i}`, { method: 'POST', body: String(i) }).then((answer) =>
          answer.arrayBuffer(),
        ),
      ),
    );
    await arrived(() => app.received.map((seen) => seen.url), 40);
    expect(mostConcurrent()).toBeGreaterThan(1);
    expect(mostConcurrent()).toBeLessThanOrEqual(8);
    const refused = await runCli(['--no-tui', '--port', '0', '--forward-concurrency', '65']);
    expect(refused.stderr).toContain(
      '--forward-concurrency must be a whole number from 1 to 64 (got 65)',
    );
    expect(refused.code).toBe(2);
  });
});
