// The relay keeps every header of a request within its byte limit, however many there are: the
// last ones are often a signature, and the Via that stops a forwarding loop through a channel.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRelayChannel, listenToChannel, sendRaw, startRelay, waitFor } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-relay-headers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const many = Array.from({ length: 1100 }, (_, index) => `X-H${index}: ${index}\r\n`).join('');

describe('a request with more than a thousand headers', () => {
  it('is relayed with all of them, the last (a signature) included', async () => {
    const relay = await startRelay();
    cleanups.push(() => relay.app.close());
    const channel = await createRelayChannel(relay.base);
    const path = new URL(channel.sendUrl).pathname;
    const answer = await sendRaw(
      relay.port,
      `POST ${path}/many HTTP/1.1\r\nHost: x\r\n${many}X-Signature: sha256=abc\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    const [event] = (await relay.store.readAfter(channel.id, null, 10, Date.now())).events;
    const headers = (JSON.parse(event?.data ?? '{}') as { headers: [string, string][] }).headers;
    expect(headers).toHaveLength(1100 + 4);
    expect(headers.at(-3)).toEqual(['X-Signature', 'sha256=abc']);
  });

  it('forwarded back into its own channel, it is recorded twice, not without end', async () => {
    const relay = await startRelay();
    cleanups.push(() => relay.app.close());
    const channel = await createRelayChannel(relay.base);
    const cli = await listenToChannel(
      channel,
      { dir, args: ['--forward-to', channel.sendUrl] },
      (cleanup) => cleanups.push(cleanup),
    );
    const path = new URL(channel.sendUrl).pathname;
    await sendRaw(
      relay.port,
      `POST ${path}/loop HTTP/1.1\r\nHost: x\r\n${many}Content-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    const records = () => cli.stdout.split('\n').filter((line) => line.startsWith('{')).length;
    await waitFor(
      () => records() >= 2,
      () => cli.stderr,
    );
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(records()).toBe(2);
    expect(cli.stdout).toContain('"failure":"loop"');
  });
});
