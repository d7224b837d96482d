import type { ResourceDefinition } from './definition.js';
import { type AnyDatabase, listRows, parseSortKeys, type Row } from './repository.js';
import { MAX_PAGE_SIZE } from './schemas.js';

/** A validated list query (see listQuerySchema): paging, sort keys, filters. */
export interface ListQuery {
  page: number;
  limit: number;
  sortby?: string[];
  [filter: string]: unknown;
}

/** One page of a resource, optionally restricted to one parent (`fixedFilters`). */
export async function listPage(
  db: AnyDatabase,
  definition: ResourceDefinition,
  query: ListQuery,
  fixedFilters: Row = {},
) {
  const { page, limit: requested, sortby = [], from, to, ...filters } = query;
  const limit = Math.min(requested, MAX_PAGE_SIZE);
  const { totalCount, rows } = await listRows(db, definition, {
    page,
    limit,
    sort: sortby.length > 0 ? parseSortKeys(definition, sortby) : (definition.defaultSort ?? []),
    filters: { ...filters, ...fixedFilters },
    ranges:
      definition.timeRange !== undefined && (from !== undefined || to !== undefined)
        ? [{ column: definition.timeRange, from, to }]
        : [],
  });
  return {
    meta: {
      current_page: page,
      limit,
      total_pages: Math.ceil(totalCount / limit),
      total_count: totalCount,
    },
    data: rows,
  };
}
