/**
 * What lists may reuse between requests without ever answering with stale data: exact totals and
 * the positions of rows in id order. Counting 100,000 matching rows costs milliseconds of
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

export interface CachedCount {
  version: number;
  count: number;
}

/** Where rows sit in id order: the id of the row at each offset a page started at. */
export interface PageAnchors {
  version: number;
  idAtOffset: Map<number, string>;
}

/** Anchors kept per filter combination: the pages most recently asked for. */
const ANCHORS_PER_LIST = 64;

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
  totalsMaintained: number;
  totalsReused: number;
  totalsCounted: number;
  /** Lists that waited for another request's count of the same filter instead of counting. */
  countsAwaited: number;
}

export class ListCache {
  readonly enabled: boolean;
  readonly stats: ListCacheStats = {
    pagesReused: 0,
    pagesRead: 0,
    totalsMaintained: 0,
    totalsReused: 0,
    totalsCounted: 0,
    countsAwaited: 0,
  };
  /** The highest version of each table any statement of this instance has read. */
  readonly latestVersion = new Map<string, number>();
  /** Per filter combination: the request whose statement may be counting it right now. */
  private readonly counting = new Map<string, Promise<void>>();
  /** Per table and filter combination. */
  readonly counts: RecentlyUsed<CachedCount>;
  readonly anchors: RecentlyUsed<PageAnchors>;
  /** Per route and query (see pages.ts). */
  readonly pages: RecentlyUsed<RenderedPage>;

  /** Disabled, it keeps nothing: every list is read, counted and serialised afresh. */
  constructor(enabled = true) {
    this.enabled = enabled;
    this.counts = new RecentlyUsed(enabled ? 2000 : 0);
    this.anchors = new RecentlyUsed(enabled ? 200 : 0);
    this.pages = new RecentlyUsed(enabled ? RENDERED_PAGES : 0);
  }

  /** Records a version some statement read: a higher one means a write committed since. */
  sawVersion(table: string, version: number): void {
    if (version > (this.latestVersion.get(table) ?? Number.NEGATIVE_INFINITY)) {
      this.latestVersion.set(table, version);
    }
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

  /** The known row position closest below `offset`, if any. */
  nearestAnchor(key: string, offset: number) {
    const anchors = this.anchors.get(key);
    let best: { offset: number; id: string } | undefined;
    for (const [at, id] of anchors?.idAtOffset ?? []) {
      if (at <= offset && (!best || at > best.offset)) best = { offset: at, id };
    }
    return anchors && best ? { version: anchors.version, ...best } : undefined;
  }

  recordAnchor(key: string, version: number, offset: number, id: string): void {
    let anchors = this.anchors.get(key);
    if (!anchors || anchors.version !== version) {
      anchors = { version, idAtOffset: new Map() };
      this.anchors.set(key, anchors);
    }
    anchors.idAtOffset.delete(offset);
    anchors.idAtOffset.set(offset, id);
    if (anchors.idAtOffset.size > ANCHORS_PER_LIST) {
      const oldest = anchors.idAtOffset.keys().next().value;
      if (oldest !== undefined) anchors.idAtOffset.delete(oldest);
    }
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
