import type { Limits } from '../config/types.js';
import type { CapturedRequest } from './record.js';

export interface StoreSnapshot {
  /** Oldest first. The same array is returned until the store changes, so it can be compared. */
  readonly records: readonly CapturedRequest[];
  /** Requests completed since start, including the ones dropped or cleared. */
  readonly seen: number;
  /** Bytes of bodies held. */
  readonly bytes: number;
}

export type StoreChange =
  | { readonly kind: 'added'; readonly record: CapturedRequest }
  /** A held record was replaced by a newer version of itself (same seq): a forward finished. */
  | { readonly kind: 'updated'; readonly record: CapturedRequest }
  | { readonly kind: 'cleared' };

type Listener = (change: StoreChange) => void;

/**
 * Holds captured requests within the retention limits, oldest dropped first, and tells
 * subscribers that something changed. Subscribers pull a snapshot when they are ready: the server
 * never waits for the UI.
 */
export class RequestStore {
  /** Records from index `head` on are held; the slots before it are emptied and reused. */
  private records: (CapturedRequest | undefined)[] = [];
  private head = 0;
  private bytes = 0;
  private seen = 0;
  private nextSeq = 1;
  private snapshotCache: StoreSnapshot | null = null;
  private readonly listeners = new Set<Listener>();

  constructor(private readonly limits: Pick<Limits, 'maxRequests' | 'maxMemory'>) {}

  /** Adds a record, giving it the next sequence number, and applies retention. */
  add(request: Omit<CapturedRequest, 'seq'>): CapturedRequest {
    const record: CapturedRequest = { ...request, seq: this.nextSeq++ };
    this.records.push(record);
    this.bytes += record.body.length;
    this.seen += 1;
    this.applyRetention();
    this.changed({ kind: 'added', record });
    return record;
  }

  clear(): void {
    this.records = [];
    this.head = 0;
    this.bytes = 0;
    this.changed({ kind: 'cleared' });
  }

  snapshot(): StoreSnapshot {
    this.snapshotCache ??= {
      records: this.records.slice(this.head) as CapturedRequest[],
      seen: this.seen,
      bytes: this.bytes,
    };
    return this.snapshotCache;
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Drops the oldest records while over a limit. Amortised O(1): no shifting on every drop. */
  private applyRetention(): void {
    const { maxRequests, maxMemory } = this.limits;
    while (
      this.head < this.records.length &&
      (this.records.length - this.head > maxRequests || this.bytes > maxMemory)
    ) {
      this.bytes -= this.records[this.head]?.body.length ?? 0;
      this.records[this.head] = undefined; // let the body go now
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.records.length) {
      this.records = this.records.slice(this.head);
      this.head = 0;
    }
  }

  private changed(change: StoreChange): void {
    this.snapshotCache = null;
    for (const listener of this.listeners) listener(change);
  }
}
