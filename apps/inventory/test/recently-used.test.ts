import { describe, expect, it } from 'vitest';
import { RecentlyUsed } from '../src/lib/recently-used.js';

describe('RecentlyUsed', () => {
  it('forgets the least recently used entry past its capacity', () => {
    const kept = new RecentlyUsed<number>(2);
    kept.set('a', 1);
    kept.set('b', 2);
    kept.get('a'); // now b is the least recently used
    kept.set('c', 3);
    expect([kept.get('a'), kept.get('b'), kept.get('c')]).toEqual([1, undefined, 3]);
  });

  it('bounds the sum of the weights, forgetting as many old entries as it takes', () => {
    const kept = new RecentlyUsed<string[]>(5, (value) => value.length);
    kept.set('a', ['1', '2']);
    kept.set('b', ['1', '2']);
    kept.set('c', ['1', '2', '3', '4']); // 8 > 5: a and b go
    expect([kept.get('a'), kept.get('b'), kept.size]).toEqual([undefined, undefined, 1]);
    // Replacing an entry counts its new weight only; a deleted one frees its weight.
    kept.set('c', ['1']);
    kept.set('d', ['1', '2', '3', '4']);
    expect(kept.size).toBe(2);
    kept.delete('d');
    kept.set('e', ['1', '2', '3', '4']);
    expect([kept.get('c'), kept.get('e')?.length]).toEqual([['1'], 4]);
  });

  it('keeps no value heavier than its whole capacity, nor anything at capacity 0', () => {
    const weighted = new RecentlyUsed<string[]>(3, (value) => value.length);
    weighted.set('big', ['1', '2', '3', '4']);
    expect(weighted.size).toBe(0);
    const none = new RecentlyUsed<number>(0);
    none.set('a', 1);
    expect(none.get('a')).toBeUndefined();
  });
});
