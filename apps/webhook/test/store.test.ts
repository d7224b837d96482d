import { describe, expect, it } from 'vitest';
import { recordBytes, StoredRequest } from '../src/capture/record.js';
import { RequestStore, type StoreChange } from '../src/capture/store.js';
import { makeRecord } from './helpers.js';

function add(store: RequestStore, bytes: number) {
  const { seq: _seq, ...record } = makeRecord({ body: Buffer.alloc(bytes) });
  return store.add(record);
}

describe('request store', () => {
  it('keeps the newest records in order through many drops', () => {
    const store = new RequestStore({ maxRequests: 10, maxMemory: 1 << 20 });
    for (let i = 0; i < 5000; i += 1) add(store, i % 7);
    const { records, seen, bytes } = store.snapshot();
    expect(seen).toBe(5000);
    expect(records.map((record) => record.seq)).toEqual(
      Array.from({ length: 10 }, (_, i) => 4991 + i),
    );
    expect(bytes).toBe(records.reduce((sum, record) => sum + recordBytes(record), 0));
  });

  it('drops by bytes as well as by count, oldest first', () => {
    const one = recordBytes(StoredRequest.from(1, makeRecord({ body: Buffer.alloc(40) })));
    const store = new RequestStore({ maxRequests: 100, maxMemory: one * 2 + 10 });
    add(store, 40);
    add(store, 40);
    add(store, 40);
    expect(store.snapshot().records.map((record) => record.seq)).toEqual([2, 3]);
    expect(store.snapshot().bytes).toBe(one * 2);
  });

  it('counts requests in flight against --max-memory, dropping records for them', () => {
    const one = recordBytes(StoredRequest.from(1, makeRecord({ body: Buffer.alloc(40) })));
    const store = new RequestStore({ maxRequests: 100, maxMemory: one * 3 });
    add(store, 40);
    add(store, 40);
    expect(store.reserve(one)).toBe(true);
    expect(store.snapshot().records).toHaveLength(2);
    expect(store.reserve(one)).toBe(true);
    expect(store.snapshot().records.map((record) => record.seq)).toEqual([2]);
    expect(store.reserve(one * 2)).toBe(false); // requests in flight alone would exceed it
    store.release(one * 2);
    expect(store.inFlightBytes).toBe(0);
  });

  it('replaces a record by its update, and ignores updates of records no longer held', () => {
    const store = new RequestStore({ maxRequests: 2, maxMemory: 1 << 20 });
    const first = add(store, 1);
    add(store, 1);
    const changes: StoreChange['kind'][] = [];
    store.subscribe((change) => changes.push(change.kind));
    const forward = { kind: 'pending', target: 'http://x/' } as const;
    expect(store.update(first.seq, { forward })?.forward).toEqual(forward);
    expect(store.get(first.seq)?.forward).toEqual(forward);
    expect(store.get(first.seq)?.headers).toEqual(first.headers);
    add(store, 1);
    expect(store.update(first.seq, { forward })).toBeNull();
    expect(changes).toEqual(['updated', 'added']);
  });

  it('returns the same snapshot until something changes', () => {
    const store = new RequestStore({ maxRequests: 10, maxMemory: 100 });
    add(store, 1);
    const first = store.snapshot();
    expect(store.snapshot()).toBe(first);
    add(store, 1);
    expect(store.snapshot()).not.toBe(first);
  });

  it('tells subscribers about each addition and each clear, until they unsubscribe', () => {
    const store = new RequestStore({ maxRequests: 10, maxMemory: 100 });
    const changes: StoreChange['kind'][] = [];
    const unsubscribe = store.subscribe((change) => changes.push(change.kind));
    add(store, 1);
    store.clear();
    unsubscribe();
    add(store, 1);
    expect(changes).toEqual(['added', 'cleared']);
  });
});
