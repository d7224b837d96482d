// The relay's store failing while senders arrive (Redis restarting, failing over, or out of reach:
// every call rejects after its retries). Run in this process over a store the test breaks and
// mends, so a rejection nobody handled shows up here (the CLI exits 70 on one, and every relay
// sharing that Redis with it).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseRelayCommand } from '../src/relay/config.js';
import { buildRelay } from '../src/relay/server.js';
import { MemoryRelayStore } from '../src/relay/store.js';
import { createRelayChannel, RELAY_ADMIN_TOKEN } from './helpers.js';

/** A memory store whose sender-path calls reject while `down` (as ioredis does after its retries). */
class FlakyStore extends MemoryRelayStore {
  down = false;
  readonly #fail = () =>
    Promise.reject(
      new Error('Reached the max retries per request limit (redis://:hunter2-secret@redis:6379)'),
    );
  override getChannel(id: string) {
    return this.down ? this.#fail() : super.getChannel(id);
  }
  override append(id: string, data: string, now: number) {
    return this.down ? this.#fail() : super.append(id, data, now);
  }
  override countListeners(id: string) {
    return this.down ? this.#fail() : super.countListeners(id);
  }
}

describe('relay: a store that fails while a sender is handled', () => {
  let app: Awaited<ReturnType<typeof buildRelay>>;
  let store: FlakyStore;
  let base = '';
  const log: string[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    const command = parseRelayCommand(['serve', '--host', '127.0.0.1', '--port', '0'], {
      variables: { WEBHOOK_RELAY_ADMIN_TOKEN: RELAY_ADMIN_TOKEN },
    });
    if (command.kind !== 'relay-serve') throw new Error('not a relay serve command');
    const { config } = command;
    store = new FlakyStore(config.limits.buffer, config.limits.maxBufferedBytes);
    app = await buildRelay(config, {
      store,
      logStream: {
        write: (line: string) => {
          log.push(line);
          return true;
        },
      },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterEach(() => {
    store.down = false;
  });
  afterAll(async () => {
    await app?.close();
    process.off('unhandledRejection', onUnhandled);
  });

  const send = (url: string, body = '{"n":1}') =>
    fetch(url, { method: 'POST', body, signal: AbortSignal.timeout(10_000) });
  const storeLines = () =>
    log.filter((line) => /store/i.test(line) && /unavailable|available again/.test(line));

  it('answers 503 with Retry-After, logs once per incident, and serves the next request', async () => {
    const plain = await createRelayChannel(base);
    const held = await createRelayChannel(base, { waitForLocal: true });
    store.down = true;
    // A stranger's request to any well-formed id, a real channel's, and one held for a listener.
    const stranger = `${base}/c/AAAAAAAAAAAAAAAAAAAAAA/hooks`;
    for (const url of [stranger, plain.sendUrl, held.sendUrl, plain.sendUrl]) {
      const response = await send(url);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).toBe('relay: store unavailable; try again\n');
    }
    // A listener connecting meanwhile: the API's JSON error, 503 too, and no log line of its own.
    const listening = await fetch(`${base}/api/channels/${plain.id}/events`, {
      headers: { Authorization: `Bearer ${plain.token}` },
      signal: AbortSignal.timeout(10_000),
    });
    expect(listening.status).toBe(503);
    expect(listening.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(await listening.json()).toEqual({
      error: 'store_unavailable',
      message: 'the relay cannot reach its store; try again',
    });
    // Let any rejection nobody handled surface.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
    // One line for the whole incident, without the URL's password.
    expect(storeLines()).toHaveLength(1);
    expect(log.join('')).not.toContain('hunter2');

    store.down = false;
    const after = await send(plain.sendUrl);
    expect(after.status).toBe(200);
    expect(await after.text()).toBe('{"status":"ok"}');
    // The recovery is said once too; a second incident is logged again.
    expect(storeLines()).toHaveLength(2);
    store.down = true;
    expect((await send(plain.sendUrl)).status).toBe(503);
    expect((await send(plain.sendUrl)).status).toBe(503);
    expect(storeLines()).toHaveLength(3);
    store.down = false;
    expect((await send(plain.sendUrl)).status).toBe(200);
    expect(unhandled).toEqual([]);
    const events = await store.readAfter(plain.id, null, 100, Date.now());
    expect(events.events).toHaveLength(2);
  });

  it('answers 503 when the store fails after the channel was found (append)', async () => {
    const channel = await createRelayChannel(base);
    const original = store.append.bind(store);
    store.append = () => Promise.reject(new Error('Connection is closed.'));
    try {
      const response = await send(channel.sendUrl, 'x'.repeat(100_000));
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).not.toBeNull();
    } finally {
      store.append = original;
    }
    expect((await send(channel.sendUrl)).status).toBe(200);
    expect(unhandled).toEqual([]);
  });
});
