/** A bounded map that forgets the least recently used key first. */
export class RecentlyUsed<V> {
  readonly #entries = new Map<string, V>();
  constructor(readonly capacity: number) {}

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
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }
}
