import type { WireHeaders } from './protocol.js';

/** What a channel answers senders when it does not wait for a listener. */
export interface ChannelResponse {
  readonly status: number;
  readonly headers: WireHeaders;
  readonly body: string;
}

export interface Channel {
  readonly id: string;
  /** sha256 of the listen token (see secrets.ts); the token itself is never stored. */
  readonly tokenHash: string;
  readonly createdAt: number;
  readonly response: ChannelResponse;
  /** Hold senders until a listener posts the local answer (up to the relay's wait timeout). */
  readonly waitForLocal: boolean;
}

/** A buffered event: its id in the channel and the wire text sent to listeners. */
export interface StoredEvent {
  readonly id: string;
  readonly at: number;
  readonly data: string;
}

/** How much a channel's buffer keeps; the oldest events go first past any bound. */
export interface BufferBounds {
  readonly events: number;
  readonly bytes: number;
  readonly ageMs: number;
}

export type AppendResult =
  | { readonly kind: 'appended'; readonly id: string }
  /** Every channel's buffers together hold the relay's total (memory store only). */
  | { readonly kind: 'full' }
  | { readonly kind: 'no-channel' };

export interface ReadResult {
  readonly events: readonly StoredEvent[];
  /** Events after `after` were trimmed before the listener could read them. */
  readonly missed: boolean;
  /**
   * With `missed` and no events: the id to read after next time, the newest event gone as this
   * read saw it. Events appended after the read are after it (asking for the newest id apart
   * from the read would skip one appended in between).
   */
  readonly resumeAfter?: string;
}

/**
 * Where channels, their buffers and their notifications live: in this process (one relay), or in
 * Redis (several relays behind a load balancer). The server speaks only to this interface.
 */
export interface RelayStore {
  createChannel(channel: Channel, maxChannels: number): Promise<'created' | 'full'>;
  getChannel(id: string): Promise<Channel | null>;
  setTokenHash(id: string, tokenHash: string): Promise<boolean>;
  deleteChannel(id: string): Promise<boolean>;
  append(id: string, data: string, now: number): Promise<AppendResult>;
  /** Up to `limit` events after `after` (null: from the oldest held), none older than the age bound. */
  readAfter(id: string, after: string | null, limit: number, now: number): Promise<ReadResult>;
  /** The id of the newest event, where a listener without Last-Event-ID starts; null: none yet. */
  lastId(id: string): Promise<string | null>;
  /** Calls `wake` whenever an event is appended to the channel (by any relay). */
  onAppend(id: string, wake: () => void): () => void;
  /** Listeners connected to the channel, on every relay. */
  countListeners(id: string): Promise<number>;
  /**
   * Counts a listener until the returned function is called, in one step with the check that the
   * channel holds fewer than `max` on every relay; null: it holds `max` already.
   */
  addListener(id: string, max: number): Promise<(() => void) | null>;
  /** Hands a listener's answer to the relay holding that sender. */
  publishAnswer(id: string, eventId: string, answer: string): Promise<void>;
  /** Calls `receive` with the first answer posted for that event. */
  onAnswer(id: string, eventId: string, receive: (answer: string) => void): () => void;
  /** Rejects when the store cannot serve (Redis unreachable): `/health` says so. */
  check(): Promise<void>;
  close(): Promise<void>;
}

interface MemoryChannel {
  channel: Channel;
  events: StoredEvent[];
  bytes: number;
  nextSeq: number;
  /** Highest seq dropped from the buffer: a listener behind it missed events. */
  trimmedThrough: number;
  listeners: number;
  wakers: Set<() => void>;
}

/** Bytes an event holds in memory beyond its text: the object, its id and the array slot. */
const EVENT_OVERHEAD_BYTES = 128;

export function eventBytes(data: string): number {
  return data.length + EVENT_OVERHEAD_BYTES;
}

/** One relay's store: a Map of channels, each an array of events bounded by `bounds`. */
export class MemoryRelayStore implements RelayStore {
  readonly #channels = new Map<string, MemoryChannel>();
  readonly #answers = new Map<string, (answer: string) => void>();
  #totalBytes = 0;

  constructor(
    private readonly bounds: BufferBounds,
    /** Bytes all buffers may hold together; past it, sends are refused until events age out. */
    private readonly maxTotalBytes: number,
  ) {}

  /** Bytes held by every buffer (the memory bound the reliability suite checks). */
  get totalBytes(): number {
    return this.#totalBytes;
  }

  async createChannel(channel: Channel, maxChannels: number) {
    if (this.#channels.size >= maxChannels) return 'full' as const;
    this.#channels.set(channel.id, {
      channel,
      events: [],
      bytes: 0,
      nextSeq: 1,
      trimmedThrough: 0,
      listeners: 0,
      wakers: new Set(),
    });
    return 'created' as const;
  }

  async getChannel(id: string) {
    return this.#channels.get(id)?.channel ?? null;
  }

  async setTokenHash(id: string, tokenHash: string) {
    const entry = this.#channels.get(id);
    if (!entry) return false;
    entry.channel = { ...entry.channel, tokenHash };
    // Listeners check their token on waking: the ones holding the old token are dropped.
    for (const wake of entry.wakers) wake();
    return true;
  }

  async deleteChannel(id: string) {
    const entry = this.#channels.get(id);
    if (!entry) return false;
    this.#totalBytes -= entry.bytes;
    this.#channels.delete(id);
    for (const wake of entry.wakers) wake();
    return true;
  }

  async append(id: string, data: string, now: number): Promise<AppendResult> {
    const entry = this.#channels.get(id);
    if (!entry) return { kind: 'no-channel' };
    const bytes = eventBytes(data);
    this.#trim(entry, now, bytes);
    if (this.#totalBytes + bytes > this.maxTotalBytes) {
      for (const other of this.#channels.values()) this.#trim(other, now, 0);
      if (this.#totalBytes + bytes > this.maxTotalBytes) return { kind: 'full' };
    }
    const event = { id: String(entry.nextSeq++), at: now, data };
    entry.events.push(event);
    entry.bytes += bytes;
    this.#totalBytes += bytes;
    for (const wake of entry.wakers) wake();
    return { kind: 'appended', id: event.id };
  }

  /** Drops what is too old, then the oldest until `incoming` more bytes and one more event fit. */
  #trim(entry: MemoryChannel, now: number, incoming: number): void {
    let drop = 0;
    const { events } = entry;
    let bytes = entry.bytes;
    while (drop < events.length) {
      const event = events[drop] as StoredEvent;
      const tooMany = events.length - drop + (incoming > 0 ? 1 : 0) > this.bounds.events;
      const tooBig = bytes + incoming > this.bounds.bytes;
      if (!tooMany && !tooBig && now - event.at <= this.bounds.ageMs) break;
      bytes -= eventBytes(event.data);
      drop += 1;
    }
    if (drop === 0) return;
    entry.trimmedThrough = Number((events[drop - 1] as StoredEvent).id);
    events.splice(0, drop);
    this.#totalBytes -= entry.bytes - bytes;
    entry.bytes = bytes;
  }

  async readAfter(id: string, after: string | null, limit: number, now: number) {
    const entry = this.#channels.get(id);
    if (!entry) return { events: [], missed: false };
    this.#trim(entry, now, 0);
    const afterSeq = after === null ? 0 : Number(after);
    const missed = after !== null && afterSeq < entry.trimmedThrough;
    // Ids are consecutive: the first event after `afterSeq` is at a known index.
    const first = entry.events[0] ? Number(entry.events[0].id) : entry.nextSeq;
    const start = Math.max(0, afterSeq + 1 - first);
    const events = entry.events.slice(start, start + limit);
    return missed && events.length === 0
      ? { events, missed, resumeAfter: String(entry.nextSeq - 1) }
      : { events, missed };
  }

  async lastId(id: string) {
    const entry = this.#channels.get(id);
    if (!entry || entry.nextSeq === 1) return null;
    return String(entry.nextSeq - 1);
  }

  onAppend(id: string, wake: () => void) {
    const entry = this.#channels.get(id);
    entry?.wakers.add(wake);
    return () => entry?.wakers.delete(wake);
  }

  async countListeners(id: string) {
    return this.#channels.get(id)?.listeners ?? 0;
  }

  async addListener(id: string, max: number) {
    const entry = this.#channels.get(id);
    if (entry && entry.listeners >= max) return null;
    if (entry) entry.listeners += 1;
    let removed = false;
    return () => {
      if (removed || !entry) return;
      removed = true;
      entry.listeners -= 1;
    };
  }

  async publishAnswer(id: string, eventId: string, answer: string) {
    const key = `${id}/${eventId}`;
    const receive = this.#answers.get(key);
    this.#answers.delete(key);
    receive?.(answer);
  }

  onAnswer(id: string, eventId: string, receive: (answer: string) => void) {
    const key = `${id}/${eventId}`;
    this.#answers.set(key, receive);
    return () => {
      if (this.#answers.get(key) === receive) this.#answers.delete(key);
    };
  }

  async check() {}

  async close() {
    this.#channels.clear();
    this.#answers.clear();
  }
}
