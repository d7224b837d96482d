import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnyDatabase } from '../db/schema.js';
import type { ResourceDefinition } from './definition.js';
import { listRows, type RangeFilter, type SortKey } from './list.js';
import type { ListCache } from './list-cache.js';
import type { Condition } from './lookups.js';
import { type Row, visibleColumns } from './rows.js';

/**
 * CSV export of a list (`?format=csv` or `Accept: text/csv`): a header row of the selected
 * fields, then every matching row, not one page. Read from the database in keyset batches (each
 * one statement of EXPORT_BATCH rows after the previous batch's last row, list.ts), each
 * written through csv-stringify (RFC 4180 quoting) as one chunk when the client has read the
 * previous one, so memory stays constant whatever the number of rows.
 */

/** Rows per statement: large enough that a statement's cost is spread, small for memory. */
export const EXPORT_BATCH = 1000;

/**
 * OWASP's CSV injection advice: a cell starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return is a formula to spreadsheet programs; prefixed with `'` it is shown as text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  // Tags: one cell, joined with commas (the CSV quoting keeps it one cell).
  if (Array.isArray(value)) return neutralise(value.join(','));
  if (typeof value === 'string') return neutralise(value);
  // A JSON column (a webhook's filter or headers): its JSON text.
  if (typeof value === 'object') return neutralise(JSON.stringify(value));
  return String(value);
}

const neutralise = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

/** Whether a list request asks for CSV: `?format=csv`, or an Accept preferring text/csv. */
export function wantsCsv(request: FastifyRequest, format: string | undefined): boolean {
  if (format !== undefined) return format === 'csv';
  const accept = request.headers.accept ?? '';
  if (!accept.includes('text/csv')) return false;
  const json = accept.indexOf('application/json');
  return json === -1 || accept.indexOf('text/csv') < json;
}

export interface ExportRequest {
  sort: readonly SortKey[];
  conditions: readonly Condition[];
  ranges: readonly RangeFilter[];
  fields?: readonly string[];
}

/**
 * The export as text, one chunk per batch (the header first). Written per batch rather than per
 * row: a stream of 100,000 row objects cost a promise, a stream step and a string per row, about
 * 57 µs of server CPU per row and 95 MB of RSS above idle while exporting 100,000 devices
 * (the benchmark's export row); one string per 1000 rows keeps what is alive to one batch.
 */
async function* exportedChunks(
  db: AnyDatabase,
  cache: ListCache,
  definition: ResourceDefinition,
  request: ExportRequest,
  fields: readonly string[],
): AsyncGenerator<string> {
  const options = { columns: [...fields], record_delimiter: 'windows' } as const;
  let after: unknown[] | undefined;
  let header = true;
  for (;;) {
    const { rows, nextKey } = await listRows(db, cache, definition, {
      page: 1,
      limit: EXPORT_BATCH,
      sort: request.sort,
      conditions: request.conditions,
      ranges: request.ranges,
      ...(request.fields ? { columns: request.fields } : {}),
      ...(after !== undefined ? { after } : {}),
    });
    const cells = rows.map((row) => fields.map((field) => csvCell((row as Row)[field])));
    yield stringify(cells, { ...options, header });
    header = false;
    if (!nextKey) return;
    after = nextKey;
  }
}

export function sendCsv(
  reply: FastifyReply,
  db: AnyDatabase,
  definition: ResourceDefinition,
  request: ExportRequest,
) {
  const fields = request.fields ?? visibleColumns(definition);
  const csv = Readable.from(
    exportedChunks(db, reply.server.listCache, definition, request, fields),
    { objectMode: false },
  );
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${definition.name}.csv"`)
    .send(csv);
}
