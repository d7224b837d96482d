import { parse } from 'csv-parse/sync';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.js';
import { matchingErrors } from '../http/validation.js';
import { columnOf, type ResourceDefinition, SYSTEM_COLUMNS } from './definition.js';
import { kindOf } from './lookups.js';
import { fullRecordSchema, MAX_BATCH_ITEMS } from './schemas.js';

/**
 * CSV import (`POST /{resource}` with `Content-Type: text/csv`): the header row names the
 * fields, each further row is one record, and the rows are created like a JSON bulk create (all
 * or none, one audit row each). Cells are typed by their column (integers, booleans, tags split
 * on commas); an empty cell is an absent field; `id`, `created_at` and `updated_at` columns are
 * ignored, so a file exported by this API (csv-export.ts) imports as new records with the same
 * data, its formula-neutralising `'` removed again. Every row is checked against the record
 * schema here, where its row number is known: errors say `Row <n> (<field>): …`, counting the
 * header as row 1, as a spreadsheet does.
 */

export const CSV_CONTENT_TYPE = 'text/csv';

/**
 * What the export put in front of a formula-like cell: one `'` before apostrophes (none or more)
 * and `=`, `+`, `-`, `@`, a tab or a CR (csv-export.ts prefixes exactly those cells).
 */
const NEUTRALISED = /^'(?='*[=+\-@\t\r])/;

export function cellValue(definition: ResourceDefinition, field: string, text: string): unknown {
  const column = columnOf(definition, field);
  if (!column) return text;
  const kind = kindOf(column);
  if (kind === 'tags') return text === '' ? [] : text.split(',');
  if (text === '') return undefined;
  if (kind === 'integer') return /^-?[0-9]+$/.test(text) ? Number(text) : text;
  if (kind === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text.replace(NEUTRALISED, '');
}

/** The header's row number is 1; the first record's is 2. */
export const rowNumber = (index: number) => index + 2;

export function parseCsvRecords(
  definition: ResourceDefinition,
  text: string,
): Record<string, unknown>[] {
  let rows: string[][];
  try {
    rows = parse(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: false,
      // Any of CRLF, LF and CR ends a record, as for Python's csv module: csv-parse otherwise
      // takes the first line's end as the only one, and a bare LF in a CRLF file joined two
      // records into one value silently.
      record_delimiter: ['\r\n', '\n', '\r'],
    });
  } catch (error) {
    throw badRequest(`Malformed CSV: ${(error as Error).message}`);
  }
  const [header, ...records] = rows;
  if (!header || records.length === 0)
    throw badRequest('CSV needs a header row and at least one row');
  if (records.length > MAX_BATCH_ITEMS) {
    throw badRequest(`CSV has ${records.length} rows; at most ${MAX_BATCH_ITEMS} per request`);
  }
  const ignored = new Set<string>(SYSTEM_COLUMNS);
  const seen = new Set<string>();
  for (const field of header) {
    if (seen.has(field)) throw badRequest(`CSV header names ${field} twice`);
    seen.add(field);
    if (!ignored.has(field) && !columnOf(definition, field)) {
      throw badRequest(`Unknown field in CSV header: ${field}`);
    }
  }
  const schema = fullRecordSchema(definition);
  return records.map((cells, index) => {
    const record: Record<string, unknown> = {};
    header.forEach((field, position) => {
      if (ignored.has(field)) return;
      const value = cellValue(definition, field, cells[position] ?? '');
      if (value !== undefined) record[field] = value;
    });
    const problem = matchingErrors(schema, record);
    if (problem) throw badRequest(`Row ${rowNumber(index)}${problem}`);
    return record;
  });
}

/** Lets a resource's routes read CSV bodies (parsed into records, see parseCsvRecords). */
export function acceptCsv(app: FastifyInstance, definition: ResourceDefinition): void {
  app.addContentTypeParser(CSV_CONTENT_TYPE, { parseAs: 'string' }, (request, body, done) => {
    try {
      const records = parseCsvRecords(definition, body as string);
      (request as { csvImport?: boolean }).csvImport = true;
      done(null, records);
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
