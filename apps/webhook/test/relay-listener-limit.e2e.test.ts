// --max-listeners with Redis: relays sharing one Redis hold a channel's limit together, even when
// listeners connect at the same instant, and a relay stopped cleanly takes its listeners with it
// (a reconnecting client was refused by its own ghost for 30 s). Runs when TEST_REDIS_URL is set,
// in a Redis database of its own (13) so its keys meet no other test's.
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { DEFAULT_RELAY_LIMITS, parseRelayCommand } from '../src/relay/config.js';
import { RedisRelayStore } from '../src/relay/redis-store.js';
import { buildRelay } from '../src/relay/server.js';
import {
  createRelayChannel,
  openListenerStream,
  RELAY_ADMIN_TOKEN,
  RunningCli,
  waitFor,
} from './helpers.js';

const listen = async (port: number, id: string, token: string, open: (() => void)[]) =>
  (await openListenerStream(port, id, token, open)).status;

const redisUrl = process.env.TEST_REDIS_URL;
const ownDatabase = () => {
  const url = new URL(redisUrl ?? '');
  url.pathname = '/13';
  return url.toString();
};

/** A relay in this process over Redis, as `relay serve --max-listeners <n>` builds it. */
async function redisRelay(maxListeners: number) {
  const command = parseRelayCommand(
    ['serve', '--host', '127.0.0.1', '--port', '0', '--max-listeners', String(maxListeners)],
    { variables: { WEBHOOK_RELAY_ADMIN_TOKEN: RELAY_ADMIN_TOKEN } },
  );
  if (command.kind !== 'relay-serve') throw new Error('not serve');
  const store = await RedisRelayStore.connect(ownDatabase(), command.config.limits.buffer);
  const app = await buildRelay({ ...command.config, redisUrl: ownDatabase() }, { store });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  onTestFinished(async () => {
    app.server.closeAllConnections();
    await app.close();
    await store.close();
  });
  return { port, base: `http://127.0.0.1:${port}` };
}

describe.skipIf(!redisUrl)('--max-listeners with Redis (TEST_REDIS_URL)', () => {
  // Channels are kept until deleted: the ones made here are removed, so runs leave nothing behind.
  const channels: string[] = [];
  afterAll(async () => {
    if (channels.length === 0) return;
    const store = await RedisRelayStore.connect(ownDatabase(), DEFAULT_RELAY_LIMITS.buffer);
    for (const id of channels) await store.deleteChannel(id);
    await store.close();
  });
  it('holds across two relays when 30 listeners connect at once: one 200, 29 refused 429', async () => {
    const [a, b] = await Promise.all([redisRelay(1), redisRelay(1)]);
    const channel = await createRelayChannel(a.base);
    channels.push(channel.id);
    const open: (() => void)[] = [];
    onTestFinished(() => {
      for (const close of open) close();
    });
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        listen(i % 2 === 0 ? a.port : b.port, channel.id, channel.token, open),
      ),
    );
    const counts: Record<number, number> = {};
    for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
    expect(counts).toEqual({ 200: 1, 429: 29 });
  });

  it('a relay stopped with SIGTERM takes its listeners with it; a refusal past the limit is logged without the token', async () => {
    const serve = () => {
      const relay = new RunningCli(
        ['relay', 'serve', '--host', '127.0.0.1', '--port', '0', '--max-listeners', '1'],
        { env: { WEBHOOK_RELAY_ADMIN_TOKEN: RELAY_ADMIN_TOKEN, REDIS_URL: ownDatabase() } },
      );
      onTestFinished(async () => {
        await relay.stop();
      });
      return relay;
    };
    const portOf = (base: string) => Number(new URL(base).port);
    const first = serve();
    const firstBase = await first.address();
    const channel = await createRelayChannel(firstBase);
    channels.push(channel.id);
    const open: (() => void)[] = [];
    onTestFinished(() => {
      for (const close of open) close();
    });
    expect(await listen(portOf(firstBase), channel.id, channel.token, open)).toBe(200);
    const stopped = await first.stop();
    expect(stopped.signal ?? stopped.code).toBeTruthy();
    // The same client reconnecting to the relay that replaced it is not refused by its own ghost.
    const second = serve();
    const secondBase = await second.address();
    expect(await listen(portOf(secondBase), channel.id, channel.token, open)).toBe(200);
    expect(await listen(portOf(secondBase), channel.id, channel.token, open)).toBe(429);
    await waitFor(
      () => second.stdout.includes('too many listeners'),
      () => second.stdout,
    );
    const line = second.stdout.split('\n').find((text) => text.includes('too many listeners'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({
      level: 40,
      msg: 'listener refused',
      channel: channel.id,
      reason: 'too many listeners (--max-listeners 1)',
    });
    expect(second.stdout).not.toContain(channel.token);
  }, 120_000);
});
