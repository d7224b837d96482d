import type { Limits } from '../config/types.js';
import {
  type CapturedRequest,
  type RecordOutcome,
  type RequestDraft,
  recordBytes,
  StoredRequest,
} from './record.js';

export interface StoreSnapshot {
  /** Oldest first. The same array is returned until the store changes, so it can be compared. */
  readonly records: readonly CapturedRequest[];
  /** Requests completed since start, including the ones dropped or cleared. */
  readonly seen: number;
  /** Bytes the held records hold, as --max-memory counts them (bodies, headers, answers). */
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
  /** Bytes requests still arriving hold (reserved by the server); counted against maxMemory. */
  private inFlight = 0;
  private seen = 0;
  private nextSeq = 1;
  private snapshotCache: StoreSnapshot | null = null;
  private readonly listeners = new Set<Listener>();

  constructor(private readonly limits: Pick<Limits, 'maxRequests' | 'maxMemory'>) {}

  /**
   * Adds a record, giving it the next sequence number, and applies retention. `outcome` is set on
   * it (saves the caller copying the draft to add the answer or the signature check).
   */
  add(request: RequestDraft, outcome?: RecordOutcome): CapturedRequest {
    const record = StoredRequest.from(this.nextSeq++, request, outcome);
    this.records.push(record);
    this.bytes += recordBytes(record);
    this.seen += 1;
    this.applyRetention();
    this.changed({ kind: 'added', record });
    return record;
  }

  /**
   * Replaces a held record by a newer version of itself (its forward finished). Returns the new
   * version, or null when the record is no longer held.
   */
  update(seq: number, patch: RecordOutcome): CapturedRequest | null {
    const index = this.indexOf(seq);
    const old = index === -1 ? undefined : this.records[index];
    if (!old) return null;
    const record = StoredRequest.from(seq, old, patch);
    this.records[index] = record;
    this.bytes += recordBytes(record) - recordBytes(old);
    this.applyRetention();
    this.changed({ kind: 'updated', record });
    return record;
  }

  /** The held record with that seq, or undefined. */
  get(seq: number): CapturedRequest | undefined {
    const index = this.indexOf(seq);
    return index === -1 ? undefined : this.records[index];
  }

  /**
   * Reserves `bytes` for a request still arriving. Refused (false) when requests in flight would
   * then hold more than --max-memory by themselves; otherwise the oldest records are dropped to
   * make room, so records and requests in flight together stay within it. `force` reserves even
   * then (bytes already read) and returns false, telling the caller to pause.
   */
  reserve(bytes: number, force = false): boolean {
    // Bodies (forced) stop at 7/8 of the limit, so the headers of new requests still fit while
    // uploads wait: a flood of held uploads cannot lock everyone else out.
    const limit = force
      ? this.limits.maxMemory - Math.floor(this.limits.maxMemory / 8)
      : this.limits.maxMemory;
    const fits = this.inFlight + bytes <= limit;
    if (!fits && !force) return false;
    this.inFlight += bytes;
    if (this.bytes + this.inFlight > this.limits.maxMemory) {
      this.applyRetention();
      this.snapshotCache = null;
    }
    return fits;
  }

  /** Whether requests in flight hold less than --max-memory (paused uploads may go on). */
  hasRoomInFlight(): boolean {
    return this.inFlight < this.limits.maxMemory - Math.floor(this.limits.maxMemory / 8);
  }

  /** Gives back what `reserve` took. */
  release(bytes: number): void {
    this.inFlight = Math.max(0, this.inFlight - bytes);
  }

  /** Bytes reserved by requests in flight. */
  get inFlightBytes(): number {
    return this.inFlight;
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

  /** Binary search: seqs only grow along the array. */
  private indexOf(seq: number): number {
    let low = this.head;
    let high = this.records.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const found = this.records[middle]?.seq ?? 0;
      if (found === seq) return middle;
      if (found < seq) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  /**
   * Drops the oldest records while over a limit (the newest one stays even when it alone is over
   * the memory limit: one record's worth, bounded by --max-body and the header limit). Amortised
   * O(1): no shifting on every drop.
   */
  private applyRetention(): void {
    const { maxRequests, maxMemory } = this.limits;
    while (
      this.head < this.records.length - 1 &&
      (this.records.length - this.head > maxRequests || this.bytes + this.inFlight > maxMemory)
    ) {
      const dropped = this.records[this.head];
      this.bytes -= dropped ? recordBytes(dropped) : 0;
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
