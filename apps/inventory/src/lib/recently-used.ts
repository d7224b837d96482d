/**
 * A bounded map that forgets the least recently used keys first. Bounded by the number of
 * entries, or by the sum of their weights when `weigh` is given (a value heavier than the whole
 * capacity is not kept).
 */
export class RecentlyUsed<V> {
  readonly #entries = new Map<string, V>();
  #held = 0;
  constructor(
    readonly capacity: number,
    readonly weigh: (value: V) => number = () => 1,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      // Re-inserting moves the key to the end: Map order is the recency order.
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    const weight = this.weigh(value);
    if (weight > this.capacity) return;
    this.#entries.set(key, value);
    this.#held += weight;
    for (const [oldest, held] of this.#entries) {
      if (this.#held <= this.capacity) break;
      this.#entries.delete(oldest);
      this.#held -= this.weigh(held);
    }
  }

  delete(key: string): void {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#held -= this.weigh(value);
    }
  }
}
