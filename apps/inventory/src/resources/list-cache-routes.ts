import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from './schemas.js';

const Count = Type.Integer({ minimum: 0 });

/**
 * `GET /debug/list-cache` (any valid token; numbers only): what this instance's list cache did since it started, for
 * the benchmark's hit rate and for an operator asking why lists are slow (list-cache.ts).
 */
export const listCacheRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/debug/list-cache',
    {
      config: { access: 'authenticated' },
      schema: {
        description:
          "This instance's list cache since start-up: list answers sent from a rendered page " +
          '(pages_reused) or read (pages_read), of which rendered pages known to be older than ' +
          'a version of their table this instance had read since (pages_known_stale); totals ' +
          'maintained by the writes, reused from an earlier count at the same table version, or ' +
          'counted; lists that waited for a ' +
          "concurrent request's count of the same filter; pages at least 100 rows deep walked " +
          "from a recorded position (walks_from_position) or from the list's start, " +
          'recorded positions found older than the table (positions_stale), and pages at least ' +
          '100 rows deep read without recording positions, because the table was written within ' +
          'the last second or the cache is off (deep_pages_unrecorded).',
        response: responses({
          200: Type.Object({
            enabled: Type.Boolean(),
            pages_reused: Count,
            pages_read: Count,
            pages_known_stale: Count,
            totals_maintained: Count,
            totals_reused: Count,
            totals_counted: Count,
            counts_awaited: Count,
            walks_from_position: Count,
            walks_from_start: Count,
            positions_stale: Count,
            deep_pages_unrecorded: Count,
          }),
        }),
      },
    },
    async () => {
      const cache = app.listCache;
      const { stats } = cache;
      return {
        enabled: cache.enabled,
        pages_reused: stats.pagesReused,
        pages_read: stats.pagesRead,
        pages_known_stale: stats.pagesKnownStale,
        totals_maintained: stats.totalsMaintained,
        totals_reused: stats.totalsReused,
        totals_counted: stats.totalsCounted,
        counts_awaited: stats.countsAwaited,
        walks_from_position: stats.walksFromPosition,
        walks_from_start: stats.walksFromStart,
        positions_stale: stats.positionsStale,
        deep_pages_unrecorded: stats.deepPagesUnrecorded,
      };
    },
  );
};
