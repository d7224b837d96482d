import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnyDatabase } from '../db/schema.js';
import { badRequest } from '../errors.js';
import { sendCsv, wantsCsv } from './csv-export.js';
import { type CursorCodec, FOREIGN_CURSOR } from './cursor.js';
import type { ResourceDefinition } from './definition.js';
import {
  conditionsKey,
  jsonTextServes,
  listRows,
  parseSortKeys,
  type RangeFilter,
  tableVersion,
} from './list.js';
import { type ListCache, MAX_RENDERED_PAGE_BYTES } from './list-cache.js';
import { parseConditions } from './lookups.js';
import { type Row, recordFieldOrder, visibleColumns } from './rows.js';
import { MAX_PAGE_SIZE } from './schemas.js';

/** A validated list query (see listQuerySchema): paging, sort keys, fields, filters. */
export interface ListQuery {
  page?: number;
  limit: number;
  sortby?: string[];
  cursor?: string;
  fields?: string;
  brief?: boolean;
  format?: string;
  [filter: string]: unknown;
}

/**
 * The fields a response is limited to (`?fields=a,b` or `?brief=true`), or undefined for all of
 * them; 400 for an unknown field.
 */
export function selectedFields(
  definition: ResourceDefinition,
  fields: string | undefined,
  brief: boolean | undefined,
): string[] | undefined {
  if (fields !== undefined && brief) throw badRequest('Use either fields or brief, not both');
  if (brief) {
    const first = Object.keys(definition.columns)[0];
    return ['id', ...(definition.briefFields ?? (first ? [first] : []))];
  }
  if (fields === undefined) return undefined;
  const visible = visibleColumns(definition);
  const names = [...new Set(fields.split(',').map((name) => name.trim()))];
  for (const name of names) {
    if (!visible.includes(name)) {
      throw badRequest(`Unknown field in fields: ${name}: fields are ${visible.join(', ')}`);
    }
  }
  return names;
}

/** Each row with only `fields`, in the order asked for. */
export const project = (rows: readonly Row[], fields: readonly string[]) =>
  rows.map((row) => Object.fromEntries(fields.map((field) => [field, row[field] ?? null])));

/** The rows a list query selects and their order (for a page or an export). */
export function listSelection(definition: ResourceDefinition, query: ListQuery, fixedFilters: Row) {
  const {
    page: _page,
    limit: _limit,
    sortby = [],
    from,
    to,
    cursor: _cursor,
    fields,
    brief,
    format: _format,
    ...filters
  } = query;
  const sort =
    sortby.length > 0 ? parseSortKeys(definition, sortby) : (definition.defaultSort ?? []);
  const conditions = parseConditions(definition, { ...filters, ...fixedFilters });
  const ranges: RangeFilter[] =
    definition.timeRange !== undefined && (from !== undefined || to !== undefined)
      ? [{ column: definition.timeRange, from, to }]
      : [];
  return { sort, conditions, ranges, selected: selectedFields(definition, fields, brief) };
}

export async function listPage(
  db: AnyDatabase,
  cache: ListCache,
  definition: ResourceDefinition,
  query: ListQuery,
  fixedFilters: Row = {},
  cursors?: CursorCodec,
) {
  const { page: requestedPage, limit: requested, cursor } = query;
  if (cursor !== undefined && requestedPage !== undefined) {
    throw badRequest('Use either page or cursor, not both');
  }
  const page = requestedPage ?? 1;
  const limit = Math.min(requested, MAX_PAGE_SIZE);
  const { sort, conditions, ranges, selected } = listSelection(definition, query, fixedFilters);
  // The list a cursor belongs to: its resource, sort and every condition.
  const list = JSON.stringify([sort, conditionsKey(definition.table, conditions, ranges)]);
  const after =
    cursor !== undefined && cursors ? cursors.decode(cursor, definition.name, list) : undefined;
  if (after !== undefined && after.length !== sort.length + 1) {
    throw badRequest(FOREIGN_CURSOR);
  }
  // The page's JSON written by PostgreSQL, in the order the route's schema writes the fields
  // (or the order asked for), so the server neither converts nor serialises its rows.
  const fields = selected ?? recordFieldOrder(definition);
  const json = jsonTextServes(definition, fields) ? fields : undefined;
  const { totalCount, rows, nextKey, version, ...written } = await listRows(db, cache, definition, {
    page,
    limit,
    sort,
    conditions,
    ranges,
    ...(after !== undefined ? { after } : {}),
    ...(selected ? { columns: selected } : {}),
    ...(json ? { json } : {}),
  });
  return {
    meta: {
      current_page: after !== undefined ? null : page,
      limit,
      total_pages: Math.ceil(totalCount / limit),
      total_count: totalCount,
      next_cursor: nextKey && cursors ? cursors.encode(definition.name, list, nextKey) : null,
    },
    data: selected ? project(rows, selected) : rows,
    version,
    selected,
    json: written.json,
  };
}

const JSON_CONTENT = 'application/json; charset=utf-8';

/**
 * The answer's bytes: the page's JSON text as PostgreSQL wrote it, between its envelope. Each
 * part is encoded where it lands. Joined first as one string, the page (tens of kilobytes) was
 * copied again into a new string on V8's heap before being encoded, and that copy was a third
 * of everything a request of 100 devices allocated.
 */
function jsonEnvelope(head: string, page: string, tail: string): Buffer {
  const headBytes = Buffer.byteLength(head);
  const pageBytes = Buffer.byteLength(page);
  const body = Buffer.allocUnsafe(headBytes + pageBytes + Buffer.byteLength(tail));
  body.write(head, 0);
  body.write(page, headBytes);
  body.write(tail, headBytes + pageBytes);
  return body;
}

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
  // The same URL answers JSON or CSV by its Accept: a shared cache must key on it, as on the
  // Origin CORS may have named already.
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${String(vary)}, Accept` : 'Accept');
  if (wantsCsv(request, query.format)) {
    // Every matching row: paging parameters do not apply to an export.
    if (query.cursor !== undefined || query.page !== undefined) {
      throw badRequest('A CSV export has every matching row: page and cursor do not apply');
    }
    const { selected, ...selection } = listSelection(definition, query, fixedFilters);
    return sendCsv(reply, db, definition, {
      ...selection,
      ...(selected ? { fields: selected } : {}),
    });
  }
  const cache = request.server.listCache;
  const key = JSON.stringify([request.routeOptions.url, definition.table, query, fixedFilters]);
  const rendered = cache.pages.get(key);
  // Under steady writes most rendered pages are stale by their next request, and this instance
  // often knows it already from a later statement's version: asking again would cost a round trip.
  if (rendered !== undefined && cache.isKnownStale(definition.table, rendered.version)) {
    cache.stats.pagesKnownStale += 1;
  } else if (rendered !== undefined) {
    const current = await tableVersion(db, definition.table);
    if (current !== undefined) cache.sawVersion(definition.table, current);
    if (current === rendered.version) {
      cache.stats.pagesReused += 1;
      return reply.type(JSON_CONTENT).send(rendered.body);
    }
  }
  cache.stats.pagesRead += 1;
  const { version, selected, json, ...page } = await listPage(
    db,
    cache,
    definition,
    query,
    fixedFilters,
    request.server.listCursors,
  );
  // With some fields only, the route's schema (every field required) cannot write the page.
  // The meta's fields in the schema's order, so this is what the serialiser writes.
  const body =
    json !== undefined
      ? jsonEnvelope(`{"meta":${JSON.stringify(page.meta)},"data":`, json, '}')
      : Buffer.from(selected ? JSON.stringify(page) : (reply.serialize(page) as string));
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
  const cache = request.server.listCache;
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
