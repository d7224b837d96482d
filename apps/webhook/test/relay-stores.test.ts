// The relay's two buffers, in memory and in Redis, side by side: what a listener behind them is
// told. Redis runs when TEST_REDIS_URL is set (CI's second pass), as in relay-redis.e2e.test.ts.
import { randomBytes } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { RedisRelayStore } from '../src/relay/redis-store.js';
import { type BufferBounds, MemoryRelayStore, type RelayStore } from '../src/relay/store.js';

const redisUrl = process.env.TEST_REDIS_URL;
// Long enough that the reads before the wait come well within it on a busy machine.
const AGE_MS = 1000;
const bounds: BufferBounds = { events: 100, bytes: 1 << 20, ageMs: AGE_MS };

const stores: [string, () => Promise<RelayStore>][] = [
  ['memory', async () => new MemoryRelayStore(bounds, 1 << 24)],
];
if (redisUrl) stores.push(['Redis', () => RedisRelayStore.connect(redisUrl, bounds)]);

describe.each(stores)('the relay buffer in %s', (_name, open) => {
  it('tells a listener behind events that aged out that it missed them (Redis said nothing)', async () => {
    const store = await open();
    const id = randomBytes(16).toString('base64url');
    onTestFinished(async () => {
      await store.deleteChannel(id);
      await store.close();
    });
    const channel = {
      id,
      tokenHash: 'x'.repeat(64),
      createdAt: Date.now(),
      response: { status: 200, headers: [], body: '' },
      waitForLocal: false,
    };
    expect(await store.createChannel(channel, 100)).toBe('created');
    const ids: string[] = [];
    for (const data of ['one', 'two', 'three']) {
      const appended = await store.append(id, data, Date.now());
      if (appended.kind !== 'appended') throw new Error(appended.kind);
      ids.push(appended.id);
    }
    const current = await store.readAfter(id, ids[0] ?? null, 64, Date.now());
    expect(current).toEqual({ events: expect.any(Array), missed: false });
    expect(current.events.map((event) => event.data)).toEqual(['two', 'three']);
    await new Promise((resolve) => setTimeout(resolve, AGE_MS + 200));
    // Missed, and where to go on from: the newest event gone, as the read saw it.
    expect(await store.readAfter(id, ids[0] ?? null, 64, Date.now())).toEqual({
      events: [],
      missed: true,
      resumeAfter: ids[2],
    });
    // Caught up with the last one, nothing was missed.
    expect(await store.readAfter(id, ids[2] ?? null, 64, Date.now())).toEqual({
      events: [],
      missed: false,
    });
    // A new event after the old ones went: it is read, and what went before it is still missed.
    await store.append(id, 'four', Date.now());
    const resumed = await store.readAfter(id, ids[0] ?? null, 64, Date.now());
    expect(resumed.events.map((event) => event.data)).toEqual(['four']);
    expect(resumed.missed).toBe(true);
    const current2 = await store.readAfter(id, ids[2] ?? null, 64, Date.now());
    expect(current2.events.map((event) => event.data)).toEqual(['four']);
    expect(current2.missed).toBe(false);
  });
});
