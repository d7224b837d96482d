import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResourceDefinition } from './definition.js';
import { listCacheOf, MAX_RENDERED_PAGE_BYTES } from './list-cache.js';
import { type AnyDatabase, listRows, parseSortKeys, type Row, tableVersion } from './repository.js';
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
  const { totalCount, rows, version } = await listRows(db, definition, {
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
    version,
  };
}

const JSON_CONTENT = 'application/json; charset=utf-8';

/**
 * Answers a list request, reusing the JSON text of an identical earlier request when its table
 * has not changed since (list-cache.ts): the request then costs one small statement (the
 * table's version) instead of reading, converting and serialising its rows. Otherwise the page
 * is read (its statement reads the version in the same snapshot as the rows), serialised with
 * the route's response schema, kept, and sent. The answer is the same, byte for byte, as
 * without the cache; it is exact because the version changes with every committed write.
 */
export async function sendListPage(
  request: FastifyRequest,
  reply: FastifyReply,
  db: AnyDatabase,
  definition: ResourceDefinition,
  query: ListQuery,
  fixedFilters: Row = {},
) {
  const cache = listCacheOf(db);
  const key = JSON.stringify([request.routeOptions.url, definition.table, query, fixedFilters]);
  const rendered = cache.pages.get(key);
  if (rendered !== undefined && (await tableVersion(db, definition.table)) === rendered.version) {
    return reply.type(JSON_CONTENT).send(rendered.body);
  }
  const { version, ...page } = await listPage(db, definition, query, fixedFilters);
  const body = Buffer.from(reply.serialize(page) as string);
  if (version !== undefined && body.length <= MAX_RENDERED_PAGE_BYTES) {
    cache.pages.set(key, { version, body });
  }
  return reply.type(JSON_CONTENT).send(body);
}

/**
 * The same reuse for any answer read from one table (the metrics overview): its table's version
 * is read first, then the answer is produced (in as many statements as it takes) and kept under
 * that version. Kept under the version read before it, an answer is reused only while no write
 * has committed since that read, so it is exactly what reading again would give.
 */
export async function sendVersionedAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  db: AnyDatabase,
  table: string,
  produce: () => Promise<unknown>,
) {
  const cache = listCacheOf(db);
  const key = JSON.stringify([request.routeOptions.url, table, request.query, request.params]);
  const version = await tableVersion(db, table);
  const rendered = cache.pages.get(key);
  if (rendered !== undefined && rendered.version === version) {
    return reply.type(JSON_CONTENT).send(rendered.body);
  }
  const body = Buffer.from(reply.serialize(await produce()) as string);
  if (version !== undefined && body.length <= MAX_RENDERED_PAGE_BYTES) {
    cache.pages.set(key, { version, body });
  }
  return reply.type(JSON_CONTENT).send(body);
}
