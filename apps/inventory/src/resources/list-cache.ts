/**
 * What lists may reuse between requests without ever answering with stale data: exact totals and
 * the positions of rows in each list's order. Counting 100,000 matching rows costs milliseconds of
 * database time per request and walking 90,000 index entries to reach page 900 even more, while
 * the page itself costs a fraction of one; NetBox-style lists that count on every request are
 * slow for that reason.
 *
 * Migration 004 gives every listed table a version: the sum of its `table_versions` counters,
 * bumped by a statement trigger in the same transaction as every write, so it changes with each
 * committed write and with nothing else. A list reads the version in the same statement (so the
 * same snapshot) as its page, and uses what is cached here only when it was recorded at that
 * very version (list.ts). Totals are therefore always exact, for every instance sharing
 * the database, and cost nothing while the table is not written.
 */

import { RecentlyUsed } from '../lib/recently-used.js';
import { FilterFrequencies } from './filter-frequencies.js';

export interface CachedCount {
  version: number;
  count: number;
}

/**
 * Where rows sit in one list's order (a filter combination and a sort) at one version of its
 * table: `keys[i]` holds the sort values and id of the row at position `(i + 1) * step - 1`, the
 * last row of each block of `step`. A page at offset o starts right after the row of block
 * `floor(o / step) - 1` and skips fewer than `step` rows, instead of walking o index entries.
 * Recorded along the walks pages make anyway (list.ts), so it covers a prefix of the list up to
 * the deepest page read since the last write; a write makes it unusable (another version).
 */
export interface PositionMap {
  version: number;
  step: number;
  keys: readonly (readonly unknown[])[];
}

/** Rows per block of a position map: a page with a map walks fewer than this many. */
export const POSITION_STEP = 100;
/**
 * How long a table must go without a write this instance has seen before a deep page records
 * positions in it again. A walk that records them numbers every row it passes and keeps the
 * last of each block: PostgreSQL passes each row through three more steps than a page read with
 * OFFSET, and the walk costs two to three times as much. A map pays that back only when the
 * same list is read deep again at the same version; under a steady trickle of writes (one every
 * few tens of milliseconds in the benchmark's `mixed` traffic) it goes stale first, every time.
 */
export const POSITIONS_AFTER_QUIET_MS = 1000;
/**
 * Positions kept, over all lists: about 150 bytes each (a sort value and an id), so 15 MB.
 * A list of 100,000 matching rows fills 1,000 of them; the least recently used lists go first.
 */
const POSITIONS_KEPT = 100_000;

/**
 * A list response as sent (its JSON, encoded), and the version of its table it was read at:
 * while the table's version is unchanged, the same request has the same answer, byte for byte.
 * Kept as bytes: a string would be encoded to UTF-8 again on every send, which for a page of
 * 100 devices (43 KB) cost more CPU than everything else a cached answer does.
 */
export interface RenderedPage {
  version: number;
  body: Buffer;
}

/** Rendered pages kept: the most recently used. At most about 64 KiB each, so about 16 MiB. */
const RENDERED_PAGES = 256;
export const MAX_RENDERED_PAGE_BYTES = 64 * 1024;

/**
 * What the cache did since the instance started (`GET /debug/list-cache`, and the benchmark's
 * hit rate). A total is either maintained by the writes (the row count or a value counter:
 * never counted), reused (recorded at the version the statement read), or counted.
 */
export interface ListCacheStats {
  /** List answers sent from a rendered page, and those read from the database. */
  pagesReused: number;
  pagesRead: number;
  /**
   * Rendered pages found older than a version of their table this instance had already read:
   * read again without first asking the table's version (counted in pagesRead too).
   */
  pagesKnownStale: number;
  totalsMaintained: number;
  totalsReused: number;
  totalsCounted: number;
  /** Lists that waited for another request's count of the same filter instead of counting. */
  countsAwaited: number;
  /**
   * Pages at least a block deep: walked from a position map's block (fewer than a block's rows
   * skipped), or from the list's start; and walks whose map turned out older than the table
   * (a write this instance had not seen yet), read again from the start.
   */
  walksFromPosition: number;
  walksFromStart: number;
  positionsStale: number;
  /**
   * Pages at least a block deep read with OFFSET, recording nothing: the table had been written
   * too recently for a map to last (POSITIONS_AFTER_QUIET_MS), or the cache is off.
   */
  deepPagesUnrecorded: number;
}

export interface ListCacheOptions {
  /** POSITIONS_AFTER_QUIET_MS unless given (tests pass 0, or their own clock). */
  positionsAfterQuietMs?: number;
  now?: () => number;
}

export class ListCache {
  readonly enabled: boolean;
  readonly stats: ListCacheStats = {
    pagesReused: 0,
    pagesRead: 0,
    pagesKnownStale: 0,
    totalsMaintained: 0,
    totalsReused: 0,
    totalsCounted: 0,
    countsAwaited: 0,
    walksFromPosition: 0,
    walksFromStart: 0,
    positionsStale: 0,
    deepPagesUnrecorded: 0,
  };
  /** The highest version of each table any statement of this instance has read. */
  readonly latestVersion = new Map<string, number>();
  /** When this instance last saw each table's version rise (a write committed). */
  private readonly versionRoseAt = new Map<string, number>();
  private readonly positionsAfterQuietMs: number;
  private readonly now: () => number;
  /** Per filter combination: the request whose statement may be counting it right now. */
  private readonly counting = new Map<string, Promise<void>>();
  /** Per table and filter combination. */
  readonly counts: RecentlyUsed<CachedCount>;
  /** Per list (filter and sort), bounded by the positions they hold in all. */
  readonly positions: RecentlyUsed<PositionMap>;
  /** Per route and query (see pages.ts). */
  readonly pages: RecentlyUsed<RenderedPage>;
  /**
   * Which filter leads a list with several (filter-frequencies.ts). Kept with the cache off
   * too: it decides how a page is read, never what it holds.
   */
  readonly frequencies = new FilterFrequencies();

  /** Disabled, it keeps nothing: every list is read, counted and serialised afresh. */
  constructor(
    enabled = true,
    {
      positionsAfterQuietMs = POSITIONS_AFTER_QUIET_MS,
      now = () => performance.now(),
    }: ListCacheOptions = {},
  ) {
    this.enabled = enabled;
    this.positionsAfterQuietMs = positionsAfterQuietMs;
    this.now = now;
    this.counts = new RecentlyUsed(enabled ? 2000 : 0);
    this.positions = new RecentlyUsed(enabled ? POSITIONS_KEPT : 0, (map) => map.keys.length);
    this.pages = new RecentlyUsed(enabled ? RENDERED_PAGES : 0);
  }

  /** Records a version some statement read: a higher one means a write committed since. */
  sawVersion(table: string, version: number): void {
    const latest = this.latestVersion.get(table);
    if (latest === undefined || version > latest) {
      this.latestVersion.set(table, version);
      if (latest !== undefined) this.versionRoseAt.set(table, this.now());
    }
  }

  /**
   * Whether something kept at `version` of `table` is older than a version this instance has
   * already read, so a write committed since. Versions only rise, so asking the database again
   * could only confirm it. False when unsure: the caller then asks.
   */
  isKnownStale(table: string, version: number): boolean {
    const latest = this.latestVersion.get(table);
    return latest !== undefined && latest > version;
  }

  /**
   * Whether a deep page of `table` that has no usable map should walk from the list's start
   * and record the positions it passes, or just read its page with OFFSET: only when the table
   * has gone POSITIONS_AFTER_QUIET_MS without a write this instance has seen, so that the map
   * is likely to outlive the walk. This decides the cost of a page, never its rows.
   */
  recordsPositions(table: string): boolean {
    if (!this.enabled) return false;
    const rose = this.versionRoseAt.get(table);
    return rose === undefined || this.now() - rose >= this.positionsAfterQuietMs;
  }

  /**
   * Coalesces the counts of one filter: when the count recorded for `key` is older than the
   * latest version seen of `table` (a write committed since), the first request counts and the
   * others arriving meanwhile wait for it, then send their statements with its count, which
   * they reuse if no further write committed (else they count, as before). 32 readers of a
   * filter after a write thus run one count, not 32. Exactness never depends on this: each
   * statement still compares the count's version with the one it reads itself.
   * Answers the function to call when the caller's own statement has finished, if it counts.
   */
  async coalesceCount(table: string, key: string): Promise<(() => void) | undefined> {
    if (!this.enabled) return undefined;
    const cached = this.counts.get(key);
    if (cached !== undefined && cached.version === this.latestVersion.get(table)) return undefined;
    const running = this.counting.get(key);
    if (running !== undefined) {
      this.stats.countsAwaited += 1;
      await running;
      return undefined;
    }
    let finished = () => {};
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    this.counting.set(key, done);
    return () => {
      if (this.counting.get(key) === done) this.counting.delete(key);
      finished();
    };
  }

  /**
   * Where to start a page at `offset` of the list `key`: after the last row of the furthest
   * recorded block at or before it, if the map was recorded at the latest version this instance
   * has seen of `table` (an older one is dropped: a write has moved rows since). The statement
   * still checks the version it reads itself (list.ts).
   */
  startOf(table: string, key: string, offset: number) {
    const map = this.positions.get(key);
    if (map === undefined) return undefined;
    if (map.version !== this.latestVersion.get(table)) {
      this.positions.delete(key);
      return undefined;
    }
    const block = Math.min(Math.floor(offset / map.step), map.keys.length);
    const after = map.keys[block - 1];
    return after === undefined
      ? undefined
      : { version: map.version, position: block * map.step, after };
  }

  /**
   * Records the block ends a walk from `position` (a multiple of the step, 0 for the list's
   * start) passed, at `version`: extends the list's map, or starts a new one at a new version.
   */
  recordPositions(
    key: string,
    version: number,
    position: number,
    ends: readonly (readonly unknown[])[],
  ): void {
    if (ends.length === 0) return;
    const map = this.positions.get(key);
    const known = map !== undefined && map.version === version ? map.keys : [];
    const first = position / POSITION_STEP;
    // Only a walk from within the known prefix (or from the start) keeps the map contiguous.
    if (first > known.length || known.length >= first + ends.length) return;
    this.positions.set(key, {
      version,
      step: POSITION_STEP,
      keys: [...known.slice(0, first), ...ends],
    });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * This instance's list cache, made by buildApp for its database (LIST_CACHE=off: one that
     * keeps nothing). One per instance and database: what one database holds never answers for
     * another.
     */
    listCache: ListCache;
  }
}
