import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type {
  AppendResult,
  BufferBounds,
  Channel,
  ReadResult,
  RelayStore,
  StoredEvent,
} from './store.js';
import { eventBytes } from './store.js';

const PREFIX = 'webhook-relay:';
const key = {
  channels: `${PREFIX}channels`,
  channel: (id: string) => `${PREFIX}channel:${id}`,
  events: (id: string) => `${PREFIX}events:${id}`,
  bytes: (id: string) => `${PREFIX}bytes:${id}`,
  trimmed: (id: string) => `${PREFIX}trimmed:${id}`,
  last: (id: string) => `${PREFIX}last:${id}`,
  listeners: (id: string) => `${PREFIX}listeners:${id}`,
  wake: (id: string) => `${PREFIX}wake:${id}`,
  answer: (id: string, event: string) => `${PREFIX}answer:${id}:${event}`,
};

/** A listener counts for this long after its last refresh (a crashed relay's listeners expire). */
const LISTENER_TTL_MS = 30_000;
const LISTENER_REFRESH_MS = 10_000;

/**
 * Appends to the channel's stream and trims it by count, bytes and age in one step, so relays
 * appending at once never overshoot; wakes every relay's listeners of that channel. The stream
 * expires once its newest event is past the age bound; `trimmed` (the newest event dropped) and
 * `last` (the newest appended) stay with the channel, so a listener behind an expired stream is
 * still told it missed events.
 * KEYS: channel, events, bytes, trimmed, wake, last. ARGV: data, bytes, max events, max bytes,
 * oldest ms, age ms.
 */
const APPEND = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if redis.call('EXISTS', KEYS[2]) == 0 then
  local last = redis.call('GET', KEYS[6])
  if last then redis.call('SET', KEYS[4], last) end
end
local id = redis.call('XADD', KEYS[2], '*', 'd', ARGV[1], 'b', ARGV[2])
redis.call('SET', KEYS[6], id)
local total = redis.call('INCRBY', KEYS[3], ARGV[2])
local count = redis.call('XLEN', KEYS[2])
local maxEvents = tonumber(ARGV[3])
local maxBytes = tonumber(ARGV[4])
local oldestMs = tonumber(ARGV[5])
while count > 1 do
  local first = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)[1]
  local ms = tonumber(string.match(first[1], '^(%d+)'))
  if count > maxEvents or total > maxBytes or ms < oldestMs then
    redis.call('XDEL', KEYS[2], first[1])
    total = redis.call('DECRBY', KEYS[3], first[2][4])
    redis.call('SET', KEYS[4], first[1])
    count = count - 1
  else
    break
  end
end
redis.call('PEXPIRE', KEYS[2], ARGV[6])
redis.call('PEXPIRE', KEYS[3], ARGV[6])
redis.call('PUBLISH', KEYS[5], id)
return id
`;

/**
 * Reads a channel's events with what they are compared with, at one instant.
 * KEYS: events, trimmed, last. ARGV: start, count, aged-out start ('' when the reader is not
 * behind the age bound), aged-out end. Returns the entries, trimmed, last, and 1 when an event
 * between the reader and the age bound is still in the stream.
 */
const READ = `
local entries = redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', ARGV[2])
local aged = 0
if ARGV[3] ~= '' then
  aged = #redis.call('XRANGE', KEYS[1], ARGV[3], ARGV[4], 'COUNT', 1)
end
return {entries, redis.call('GET', KEYS[2]), redis.call('GET', KEYS[3]), aged}
`;

/** KEYS: channels set, channel. ARGV: max channels, channel JSON. */
const CREATE = `
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[3])
redis.call('SET', KEYS[2], ARGV[2])
return 1
`;

/**
 * Adds a listener unless the channel holds `max` already, dropping expired entries first: one
 * step, so listeners connecting at once to any relay never overshoot the limit.
 * KEYS: listeners. ARGV: now, max, expiry, member. Returns 1 when added.
 */
const ADD_LISTENER = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
return 1
`;

/** Compares stream ids `ms-seq`. */
function compareIds(a: string, b: string): number {
  const [aMs = 0n, aSeq = 0n] = a.split('-').map(BigInt);
  const [bMs = 0n, bSeq = 0n] = b.split('-').map(BigInt);
  return aMs === bMs ? Number(aSeq - bSeq) : aMs < bMs ? -1 : 1;
}

/**
 * Channels, buffers (one Redis stream per channel), listener counts and notifications in Redis,
 * so that relays behind a load balancer act as one: a sender hitting one relay reaches a listener
 * held by another, and a listener resumes from any of them.
 */
export class RedisRelayStore implements RelayStore {
  readonly #instance = randomBytes(8).toString('hex');
  readonly #wakers = new Map<string, Set<() => void>>();
  readonly #answerHandlers = new Map<string, (answer: string) => void>();
  readonly #listeners = new Map<string, string>();
  readonly #refresh: NodeJS.Timeout;
  #nextListener = 0;
  #closed = false;

  private constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly bounds: BufferBounds,
  ) {
    subscriber.on('message', (channel: string, message: string) => {
      if (channel.startsWith(`${PREFIX}wake:`)) {
        for (const wake of this.#wakers.get(channel) ?? []) wake();
        return;
      }
      const receive = this.#answerHandlers.get(channel);
      if (receive) {
        this.#answerHandlers.delete(channel);
        void subscriber.unsubscribe(channel).catch(() => {});
        receive(message);
      }
    });
    this.#refresh = setInterval(() => void this.#refreshListeners(), LISTENER_REFRESH_MS);
    this.#refresh.unref();
  }

  static async connect(url: string, bounds: BufferBounds): Promise<RedisRelayStore> {
    const options = { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: true };
    const redis = new Redis(url, options);
    const subscriber = new Redis(url, options);
    redis.on('error', () => {});
    subscriber.on('error', () => {});
    await Promise.all([redis.connect(), subscriber.connect()]);
    return new RedisRelayStore(redis, subscriber, bounds);
  }

  async createChannel(channel: Channel, maxChannels: number) {
    const created = await this.redis.eval(
      CREATE,
      2,
      key.channels,
      key.channel(channel.id),
      maxChannels,
      JSON.stringify(channel),
      channel.id,
    );
    return created === 1 ? ('created' as const) : ('full' as const);
  }

  async getChannel(id: string) {
    const text = await this.redis.get(key.channel(id));
    return text ? (JSON.parse(text) as Channel) : null;
  }

  async setTokenHash(id: string, tokenHash: string) {
    const channel = await this.getChannel(id);
    if (!channel) return false;
    await this.redis.set(key.channel(id), JSON.stringify({ ...channel, tokenHash }), 'XX');
    await this.redis.publish(key.wake(id), 'rotated');
    return true;
  }

  async deleteChannel(id: string) {
    const removed = await this.redis.srem(key.channels, id);
    await this.redis.del(
      key.channel(id),
      key.events(id),
      key.bytes(id),
      key.trimmed(id),
      key.last(id),
      key.listeners(id),
    );
    await this.redis.publish(key.wake(id), 'deleted');
    return removed === 1;
  }

  async append(id: string, data: string, now: number): Promise<AppendResult> {
    const appended = (await this.redis.eval(
      APPEND,
      6,
      key.channel(id),
      key.events(id),
      key.bytes(id),
      key.trimmed(id),
      key.wake(id),
      key.last(id),
      data,
      eventBytes(data),
      this.bounds.events,
      this.bounds.bytes,
      now - this.bounds.ageMs,
      this.bounds.ageMs,
    )) as string | null;
    return appended ? { kind: 'appended', id: appended } : { kind: 'no-channel' };
  }

  async readAfter(
    id: string,
    after: string | null,
    limit: number,
    now: number,
  ): Promise<ReadResult> {
    // Events past the age bound stay in the stream until the next append trims them, or go with
    // it when it expires: the read starts after them, and a listener behind them is told it
    // missed them, as the memory store tells it. One script, so that another relay's append
    // cannot fall between the read and what it is compared with.
    const oldest = `${Math.max(0, now - this.bounds.ageMs)}-0`;
    const behind = after !== null && compareIds(after, oldest) < 0;
    const [entries, trimmed, last, agedOut] = (await this.redis.eval(
      READ,
      3,
      key.events(id),
      key.trimmed(id),
      key.last(id),
      after && !behind ? `(${after}` : oldest,
      limit,
      behind ? `(${after}` : '',
      `(${oldest}`,
    )) as [[string, string[]][], string | null, string | null, number];
    const events: StoredEvent[] = entries.map(([eventId, fields]) => ({
      id: eventId,
      at: Number(eventId.split('-')[0]),
      data: fields[1] ?? '',
    }));
    const missed =
      after !== null &&
      (agedOut > 0 ||
        (trimmed !== null && compareIds(after, trimmed) < 0) ||
        // Nothing held after it, yet something was appended after it: aged out or expired.
        (events.length === 0 && last !== null && compareIds(after, last) < 0));
    // Nothing returned: every event up to `last` is gone, and later ones come after it.
    if (missed && events.length === 0 && last !== null)
      return { events, missed, resumeAfter: last };
    return { events, missed };
  }

  async lastId(id: string) {
    const [last] = await this.redis.xrevrange(key.events(id), '+', '-', 'COUNT', 1);
    return last?.[0] ?? null;
  }

  onAppend(id: string, wake: () => void) {
    const channel = key.wake(id);
    let wakers = this.#wakers.get(channel);
    if (!wakers) {
      wakers = new Set();
      this.#wakers.set(channel, wakers);
      void this.subscriber.subscribe(channel).catch(() => {});
    }
    wakers.add(wake);
    return () => {
      const current = this.#wakers.get(channel);
      current?.delete(wake);
      if (current && current.size === 0) {
        this.#wakers.delete(channel);
        void this.subscriber.unsubscribe(channel).catch(() => {});
      }
    };
  }

  async countListeners(id: string) {
    const listeners = key.listeners(id);
    await this.redis.zremrangebyscore(listeners, '-inf', Date.now());
    return this.redis.zcard(listeners);
  }

  async addListener(id: string, max: number) {
    const member = `${this.#instance}:${this.#nextListener++}`;
    const now = Date.now();
    const added = await this.redis.eval(
      ADD_LISTENER,
      1,
      key.listeners(id),
      now,
      max,
      now + LISTENER_TTL_MS,
      member,
    );
    if (added !== 1) return null;
    this.#listeners.set(member, id);
    return () => {
      if (!this.#listeners.delete(member)) return;
      void this.redis.zrem(key.listeners(id), member).catch(() => {});
    };
  }

  async #refreshListeners() {
    const expiry = Date.now() + LISTENER_TTL_MS;
    const pipeline = this.redis.pipeline();
    for (const [member, id] of this.#listeners) pipeline.zadd(key.listeners(id), expiry, member);
    await pipeline.exec().catch(() => {});
  }

  async publishAnswer(id: string, eventId: string, answer: string) {
    // Kept a minute too: the relay holding the sender may subscribe just after it is published.
    await this.redis.set(key.answer(id, eventId), answer, 'PX', 60_000, 'NX');
    await this.redis.publish(key.answer(id, eventId), answer);
  }

  onAnswer(id: string, eventId: string, receive: (answer: string) => void) {
    const channel = key.answer(id, eventId);
    this.#answerHandlers.set(channel, receive);
    void this.subscriber
      .subscribe(channel)
      .then(() => this.redis.get(channel))
      .then((early) => {
        if (early === null || this.#answerHandlers.get(channel) !== receive) return;
        this.#answerHandlers.delete(channel);
        void this.subscriber.unsubscribe(channel).catch(() => {});
        receive(early);
      })
      .catch(() => {});
    return () => {
      if (this.#answerHandlers.get(channel) !== receive) return;
      this.#answerHandlers.delete(channel);
      void this.subscriber.unsubscribe(channel).catch(() => {});
    };
  }

  async check() {
    await this.redis.ping();
  }

  async close() {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#refresh);
    // This relay's listeners stop counting now, not when their entries expire.
    if (this.#listeners.size > 0) {
      const pipeline = this.redis.pipeline();
      for (const [member, id] of this.#listeners) pipeline.zrem(key.listeners(id), member);
      this.#listeners.clear();
      await pipeline.exec().catch(() => {});
    }
    await Promise.allSettled([this.redis.quit(), this.subscriber.quit()]);
  }
}
