import { parse } from 'csv-parse/sync';
import type { FastifyInstance } from 'fastify';
import { ApiError, badRequest } from '../errors.js';
import { utf8Body } from '../http/text-encoding.js';
import { matchingErrors } from '../http/validation.js';
import { columnOf, type ResourceDefinition, SYSTEM_COLUMNS, tagColumns } from './definition.js';
import { kindOf } from './lookups.js';
import {
  batchUpdateSchema,
  fullRecordSchema,
  MAX_BATCH_ITEMS,
  TAG_CHANGES,
  tagChangesConflict,
} from './schemas.js';

/**
 * CSV import (`POST /{resource}` with `Content-Type: text/csv`): the header row names the
 * fields, each further row is one record, and the rows are created like a JSON bulk create (all
 * or none, one audit row each). Cells are typed by their column (integers, booleans, tags and
 * lists split on commas, objects read as JSON); an empty cell is an absent field; `id`,
 * `created_at` and `updated_at` columns are ignored, so a file exported by this API
 * (csv-export.ts) imports as new records with the same data, its formula-neutralising `'`
 * removed again. Every row is checked against the record schema here, where its line is known:
 * errors say `Row <n> (<field>): …`, n the line of the file the row starts on (the header's is
 * 1), blank lines and line breaks inside quoted cells counted.
 *
 * CSV update (`PATCH /{resource}` with `Content-Type: text/csv`): the same file with an `id`
 * column, each row the changes to the record it names, applied like a JSON batch PATCH (all or
 * none). A row changes the fields whose cells hold something: an empty cell leaves its field as
 * it is, whatever the field, so an export edited in a spreadsheet and sent back changes what was
 * edited and nothing else. (In a create an empty tags or list cell is an empty list: there is no
 * value to leave.)
 */

export const CSV_CONTENT_TYPE = 'text/csv';

/**
 * What the export put in front of a formula-like cell: one `'` before apostrophes (none or more)
 * and `=`, `+`, `-`, `@`, a tab or a CR (csv-export.ts prefixes exactly those cells).
 */
const NEUTRALISED = /^'(?='*[=+\-@\t\r])/;

/**
 * A JSON column's cell: the object the export wrote as JSON text. Text that is no JSON object
 * stays text, which the record's schema refuses naming the row and field (`must be object`): a
 * cell is never an error by itself, so the web interface's import preview reads every row.
 */
function jsonObjectCell(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : text;
  } catch {
    return text;
  }
}

/** The tag changes of a batch update (`add_tags`, `remove_tags`), read like a tags column. */
const TAG_CHANGE_FIELDS = new Set<string>(TAG_CHANGES);

/**
 * A cell's value, typed by its field. In an update an empty cell is no value at all, whatever
 * its field (the field is left as it is); in a create an empty tags or list cell is an empty
 * list, any other empty cell no value.
 */
export function cellValue(
  definition: ResourceDefinition,
  field: string,
  text: string,
  purpose: CsvPurpose = 'create',
): unknown {
  if (purpose === 'update' && text === '') return undefined;
  // Tag changes are an update's (a create's header refuses them), as is a field that is no
  // column: the id, the etag.
  if (TAG_CHANGE_FIELDS.has(field)) return text.replace(NEUTRALISED, '').split(',');
  const column = columnOf(definition, field);
  if (!column) return text;
  const kind = kindOf(column);
  // A tags or list cell was neutralised as one text (`'-edge,core`): the `'` goes before the
  // split, or it would stay on the first value.
  if (kind === 'tags' || kind === 'list') {
    return text === '' ? [] : text.replace(NEUTRALISED, '').split(',');
  }
  if (text === '') return undefined;
  if (kind === 'integer') return /^-?[0-9]+$/.test(text) ? Number(text) : text;
  if (kind === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  // An object column is exported as its JSON text (`{"X-Team": "netops"}`), which no `'`
  // neutralised: it starts with `{`.
  if (kind === 'json') return jsonObjectCell(text);
  return text.replace(NEUTRALISED, '');
}

/** A request whose body was a CSV file: the line each record starts on, for its errors. */
export interface CsvImportRequest {
  csvLines?: readonly number[];
}

/** A CSV file's records, and for each the line of the file it starts on (errors name it). */
interface CsvRecords {
  records: Record<string, unknown>[];
  lines: number[];
}

/** How many line breaks a text holds (CRLF is one). */
const lineBreaks = (cell: string) => cell.match(/\r\n|\n|\r/g)?.length ?? 0;

/** A CSV file's header and records, each record with the line of the file it starts on. */
export interface CsvRows {
  header: string[] | undefined;
  rows: Array<{ cells: string[]; line: number }>;
}

/**
 * Reads a CSV file's rows as an import and its preview in the web interface both do: a BOM
 * dropped, blank lines skipped, and each record's line counted (the header's is 1) with the
 * blank lines and the line breaks inside quoted cells before it. `relaxColumnCount` lets a row
 * have another number of cells than the header (the preview names it); otherwise that row is a
 * parse error. Throws csv-parse's error for a malformed file.
 */
export function readCsvRows(text: string, relaxColumnCount = false): CsvRows {
  const parsed = parse(text, {
    bom: true,
    skip_empty_lines: true,
    relax_column_count: relaxColumnCount,
    // Any of CRLF, LF and CR ends a record, as for Python's csv module: csv-parse otherwise
    // takes the first line's end as the only one, and a bare LF in a CRLF file joined two
    // records into one value silently.
    record_delimiter: ['\r\n', '\n', '\r'],
    // Each record's text, the blank lines skipped before it included: a row's index is not
    // its line, and csv-parse's own line count takes a CRLF inside quotes for two lines.
    raw: true,
  }) as unknown as Array<{ record: string[]; raw: string }>;
  const [headerRow, ...recordRows] = parsed;
  // The line a record starts on: after every line break of the text before it (the header's,
  // earlier records' and their blank lines) and of the blank lines just before it.
  let line = 1 + lineBreaks(headerRow?.raw ?? '');
  const rows = recordRows.map(({ record, raw }) => {
    const start = line + lineBreaks(/^(?:\r\n|\n|\r)*/.exec(raw)?.[0] ?? '');
    line += lineBreaks(raw);
    return { cells: record, line: start };
  });
  return { header: headerRow?.record, rows };
}

/** What a CSV body is read as: new records (a create) or changes to records (an update). */
export type CsvPurpose = 'create' | 'update';

/** Per definition and purpose, the schema each row is checked against (compiled once). */
const rowSchemas = new WeakMap<ResourceDefinition, Map<CsvPurpose, object>>();
export function csvRowSchema(definition: ResourceDefinition, purpose: CsvPurpose): object {
  let schemas = rowSchemas.get(definition);
  if (!schemas) {
    schemas = new Map();
    rowSchemas.set(definition, schemas);
  }
  let schema = schemas.get(purpose);
  if (!schema) {
    schema =
      purpose === 'create'
        ? fullRecordSchema(definition)
        : (batchUpdateSchema(definition) as unknown as { items: object }).items;
    schemas.set(purpose, schema);
  }
  return schema;
}

/**
 * The header fields a CSV body's rows do not carry: the system columns in a create, all but the
 * `id` in an update (which names the record changed).
 */
export function csvIgnoredFields(purpose: CsvPurpose): ReadonlySet<string> {
  return new Set<string>(SYSTEM_COLUMNS.filter((field) => purpose === 'create' || field !== 'id'));
}

/**
 * Whether a header field is one a row may carry: a column; in an update also the id, the etag
 * and, where the records have tags, the tag changes.
 */
const isCsvField = (definition: ResourceDefinition, field: string, purpose: CsvPurpose) =>
  columnOf(definition, field) !== undefined ||
  (purpose === 'update' &&
    (field === 'id' ||
      field === 'etag' ||
      (TAG_CHANGE_FIELDS.has(field) && tagColumns(definition).length > 0)));

/** Why an update's CSV cannot be read, before its rows: it names no record. */
const CSV_UPDATE_NEEDS_IDS =
  'CSV needs an id column to change records: the id of the record each row changes, as an export writes it';

/**
 * Why a CSV's header cannot be read (a field twice, a field the rows may not carry, an update
 * without ids), or undefined: the API refuses the file with it, the web interface's preview
 * shows it.
 */
export function csvHeaderProblem(
  definition: ResourceDefinition,
  header: readonly string[],
  purpose: CsvPurpose,
): string | undefined {
  const ignored = csvIgnoredFields(purpose);
  const seen = new Set<string>();
  for (const field of header) {
    if (seen.has(field)) return `CSV header names ${field} twice`;
    seen.add(field);
    if (!ignored.has(field) && !isCsvField(definition, field, purpose)) {
      return `Unknown field in CSV header: ${field}`;
    }
  }
  return purpose === 'update' && !seen.has('id') ? CSV_UPDATE_NEEDS_IDS : undefined;
}

/**
 * A CSV body's records, read for `purpose`: refused whole (400) at its first problem, a
 * malformed file, a header it cannot read or a row the schema or the update's rules refuse,
 * naming the row.
 */
function parseCsvRecords(
  definition: ResourceDefinition,
  text: string,
  purpose: CsvPurpose,
): CsvRecords {
  let read: CsvRows;
  try {
    read = readCsvRows(text);
  } catch (error) {
    throw badRequest(`Malformed CSV: ${(error as Error).message}`);
  }
  const { header, rows: recordRows } = read;
  if (!header || recordRows.length === 0)
    throw badRequest('CSV needs a header row and at least one row');
  if (recordRows.length > MAX_BATCH_ITEMS) {
    throw badRequest(`CSV has ${recordRows.length} rows; at most ${MAX_BATCH_ITEMS} per request`);
  }
  const headerProblem = csvHeaderProblem(definition, header, purpose);
  if (headerProblem) throw badRequest(headerProblem);
  const ignored = csvIgnoredFields(purpose);
  const schema = csvRowSchema(definition, purpose);
  const lines = recordRows.map((row) => row.line);
  const idLines = new Map<string, number>();
  const records = recordRows.map(({ cells, line }) => {
    const record = csvRecord(definition, header, cells, ignored, purpose);
    const problem =
      (purpose === 'update' ? updateRowProblem(definition, record, idLines, line) : undefined) ??
      matchingErrors(schema, record);
    if (problem) throw badRequest(`Row ${line}${problem}`);
    return record;
  });
  return { records, lines };
}

/** A row's record: each field of the header not ignored, its cell typed, empty cells left out. */
export function csvRecord(
  definition: ResourceDefinition,
  header: readonly string[],
  cells: readonly string[],
  ignored: ReadonlySet<string>,
  purpose: CsvPurpose,
): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  header.forEach((field, position) => {
    if (ignored.has(field)) return;
    const value = cellValue(definition, field, cells[position] ?? '', purpose);
    if (value !== undefined) record[field] = value;
  });
  return record;
}

/**
 * Why an update's row cannot be applied before its values are checked, in the file's terms: it
 * names no record, changes nothing (the schema would say `must NOT have fewer than 2
 * properties`), names the record of an earlier row again (ids compared as the database does,
 * whatever their case; `idLines` holds each id a row changes and that row's line, and this
 * row's is added), or gives tag changes beside the tags they change.
 */
export function updateRowProblem(
  definition: ResourceDefinition,
  record: Record<string, unknown>,
  idLines: Map<string, number>,
  line: number,
): string | undefined {
  if (record.id === undefined) return ' (id): is empty: give the id of the record this row changes';
  const fields = Object.keys(record).filter((field) => field !== 'id' && field !== 'etag');
  if (fields.length === 0) return ': changes nothing (every cell but the id is empty)';
  const id = String(record.id).toLowerCase();
  const earlier = idLines.get(id);
  if (earlier !== undefined) {
    return ` (id): row ${earlier} changes this record already: give each id once`;
  }
  idLines.set(id, line);
  const conflict = tagChangesConflict(definition, record);
  return conflict ? `: ${conflict}` : undefined;
}

/** The charsets a CSV file may declare, as the 415 names them. */
const ACCEPTED_CHARSETS = 'utf-8, us-ascii, iso-8859-1, windows-1252';
const UTF8_LABELS = new Set(['utf-8', 'utf8', 'unicode-1-1-utf-8', 'us-ascii', 'ascii']);

/** Whether a charset label names windows-1252 (WHATWG's labels, iso-8859-1 and latin1 among them). */
function namesWindows1252(label: string): boolean {
  try {
    return new TextDecoder(label).encoding === 'windows-1252';
  } catch {
    return false;
  }
}

/** What windows-1252 has at 0x80 to 0x9F, where ISO-8859-1 has control characters (WHATWG). */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152,
  0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122,
  0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/**
 * windows-1252 decoded by hand: Node 20's TextDecoder reads it as ISO-8859-1 (`€`, byte 0x80,
 * came out as the control character U+0080).
 */
const windows1252 = (bytes: Buffer) =>
  bytes
    .toString('latin1')
    .replace(/[\x80-\x9f]/g, (c) =>
      String.fromCharCode(WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80] ?? 0),
    );

/**
 * A CSV body's text in the charset its Content-Type declares: UTF-8 when it declares none (or
 * us-ascii, a subset), decoded strictly (utf8Body); ISO-8859-1 and windows-1252, which Excel
 * writes as "CSV" on Windows, decoded as windows-1252 (every byte is a character; WHATWG reads
 * the ISO-8859-1 label so, as browsers do). Another charset is 415: decoding it as UTF-8 would
 * alter the text.
 */
export function csvText(bytes: Buffer, contentType: string | undefined): string {
  const declared = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (declared === undefined || UTF8_LABELS.has(declared)) return utf8Body(bytes);
  if (namesWindows1252(declared)) return windows1252(bytes);
  throw new ApiError(
    415,
    `Unsupported charset for text/csv: ${declared} (accepted: ${ACCEPTED_CHARSETS})`,
  );
}

/** What a route that does not read CSV answers a CSV body with. */
export const CSV_NOT_READ =
  'Unsupported media type: text/csv is read only by a create (POST to the list) and a batch update (PATCH to the list)';

/**
 * Lets a resource's create and batch update read CSV bodies (parsed into records or changes, see
 * parseCsvRecords). A parser serves the whole plugin, so a route whose schema does not declare
 * that it consumes text/csv answers 415, as for any other type it does not read.
 */
export function acceptCsv(app: FastifyInstance, definition: ResourceDefinition): void {
  app.addContentTypeParser(CSV_CONTENT_TYPE, { parseAs: 'buffer' }, (request, body, done) => {
    const consumes = (request.routeOptions.schema as { consumes?: readonly string[] } | undefined)
      ?.consumes;
    if (!consumes?.includes(CSV_CONTENT_TYPE)) {
      done(new ApiError(415, CSV_NOT_READ), undefined);
      return;
    }
    try {
      const text = csvText(body as Buffer, request.headers['content-type']);
      const purpose = request.method === 'PATCH' ? 'update' : 'create';
      const { records, lines } = parseCsvRecords(definition, text, purpose);
      (request as CsvImportRequest).csvLines = lines;
      done(null, records);
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
