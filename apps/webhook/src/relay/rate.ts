import type { Rate } from './config.js';

/** Buckets kept at once; past it, full (idle) buckets are forgotten first, then the oldest. */
const MAX_BUCKETS = 100_000;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets by key (a channel, a sender address), in this relay's memory: each relay of a
 * Redis-backed group enforces the rate on what reaches it (the README says so). Bounded: a flood
 * from many addresses cannot grow the map past MAX_BUCKETS.
 */
export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();

  constructor(private readonly rate: Rate) {}

  /** Takes one token; returns 0 when allowed, else the seconds until one is free. */
  take(key: string, now: number): number {
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      if (this.#buckets.size >= MAX_BUCKETS) this.#sweep(now);
      bucket = { tokens: this.rate.burst, at: now };
      this.#buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(
      this.rate.burst,
      bucket.tokens + ((now - bucket.at) / 1000) * this.rate.perSecond,
    );
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate.perSecond));
  }

  #sweep(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      const refilled = bucket.tokens + ((now - bucket.at) / 1000) * this.rate.perSecond;
      if (refilled >= this.rate.burst) this.#buckets.delete(key);
    }
    // Still full: everyone is busy; forget the oldest half (they restart with a full bucket).
    if (this.#buckets.size >= MAX_BUCKETS) {
      let drop = this.#buckets.size / 2;
      for (const key of this.#buckets.keys()) {
        if (drop-- <= 0) break;
        this.#buckets.delete(key);
      }
    }
  }
}
