import { Readable } from 'node:stream';
import { copyOutOf, inlineParameters } from '@netops/store';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import Negotiator from 'negotiator';
import type { AnyDatabase } from '../db/schema.js';
import type { ResourceDefinition } from './definition.js';
import {
  type ExportSelection,
  exportBatch,
  exportRowsStatement,
  isTimestamp,
  type RangeFilter,
  type SortKey,
} from './list.js';
import { type Condition, kindOf } from './lookups.js';
import { visibleColumns } from './rows.js';

/**
 * CSV export of a list (`?format=csv` or `Accept: text/csv`): a header row of the selected
 * fields, then every matching row, not one page. PostgreSQL writes the cells (formatted and
 * neutralised in the SELECT, cellOf) and the CSV itself, so no row ever becomes an object in
 * the server: on PostgreSQL one `COPY (SELECT …) TO STDOUT (FORMAT csv)`, streamed to the socket
 * as the client reads it (one statement, so one snapshot of the whole list); on the embedded
 * store, which has no streaming COPY, keyset batches of EXPORT_BATCH records that PostgreSQL
 * joins into one text each. Either way memory holds a few chunks whatever the number of rows.
 */

/**
 * Exports streaming at once per instance on PostgreSQL. Each holds a pooled connection for as
 * long as its client takes to read it; with no cap, a few slow downloads would take every
 * connection from the other requests. Further exports wait for a slot (holding nothing).
 */
export const EXPORTS_AT_ONCE = 2;
/**
 * How long PostgreSQL lets one export's COPY run, the client's reading time included: 100,000
 * devices are about 27 MB, 10 minutes at 45 KB/s. Longer than a statement's usual deadline,
 * which would cut a large export on a slow link.
 */
export const EXPORT_DEADLINE_MS = 10 * 60_000;

/** At most `size` holders at once; the others wait in turn. */
class Slots {
  #free: number;
  readonly #waiting: Array<() => void> = [];
  constructor(size: number) {
    this.#free = size;
  }
  /** Resolves with the function that gives the slot back (once). */
  async take(): Promise<() => void> {
    if (this.#free > 0) this.#free -= 1;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free += 1;
    };
  }
}

const exportSlots = new Slots(EXPORTS_AT_ONCE);

/** Records per statement on the embedded store: a statement's cost spread, one text in memory. */
export const EXPORT_BATCH = 1000;

/** The characters that make a cell a formula to spreadsheet programs. */
const FORMULA_STARTS = sql`('=', '+', '-', '@', chr(9), chr(13))`;

/**
 * OWASP's CSV injection advice: a cell starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return is a formula to spreadsheet programs; prefixed with `'` it is shown as text. A text that
 * starts with apostrophes before one of those (`'=keep`) is prefixed too: the import removes one
 * `'` from every such cell (csv-import.ts, NEUTRALISED), so what it reads back is the text held.
 * The common case (no leading `'`) is decided on the first character alone.
 */
const neutralised = (text: RawBuilder<unknown>) =>
  sql`CASE WHEN left(${text}, 1) IN ${FORMULA_STARTS}
    OR (left(${text}, 1) = '''' AND left(ltrim(${text}, ''''), 1) IN ${FORMULA_STARTS})
    THEN '''' || ${text} ELSE ${text} END`;

/**
 * One cell as text, written as the JSON answers write the value: timestamps in UTC with
 * milliseconds (`2024-05-01T10:00:00.123Z`), booleans `true`/`false`, tags joined with commas in
 * one cell, a JSON column as PostgreSQL writes its JSON; a null stays null. `freeText` says
 * whether the text may hold any character (every text, tags and JSON included): such a cell is
 * one a spreadsheet could take for a formula, and one that may need quotes. The others (numbers,
 * ids, timestamps, booleans, addresses) are written with letters, digits and `-`, `:`, `.` and `/`
 * alone.
 */
function cellText(
  definition: ResourceDefinition,
  column: string,
  alias: string,
): { text: RawBuilder<unknown>; freeText: boolean } {
  const ref = sql.ref(`${alias}.${column}`);
  if (isTimestamp(definition, column)) {
    return {
      text: sql`to_char(${ref} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      freeText: false,
    };
  }
  const spec = definition.columns[column];
  switch (spec ? kindOf(spec) : 'uuid') {
    case 'integer':
    case 'uuid':
      return { text: sql`${ref}::text`, freeText: false };
    case 'ip':
      // The type's own output, as the JSON answers have it: `::text` always adds the netmask
      // (`10.0.0.1/32`), which an import then refuses.
      return { text: sql`format('%s', ${ref})`, freeText: false };
    case 'boolean':
      return {
        text: sql`CASE WHEN ${ref} THEN 'true' WHEN NOT ${ref} THEN 'false' END`,
        freeText: false,
      };
    case 'tags':
    case 'list':
      return { text: sql`array_to_string(${ref}, ',')`, freeText: true };
    default:
      return { text: sql`${ref}::text`, freeText: true };
  }
}

/** One cell as exported: its text (cellText), neutralised where it must be; a null is null. */
function cellOf(definition: ResourceDefinition, column: string, alias: string) {
  const { text, freeText } = cellText(definition, column, alias);
  return freeText ? neutralised(text) : text;
}

/** Every cell of a row for COPY: an empty text written as nothing, as a null is (not as `""`). */
const copyCells = (definition: ResourceDefinition, fields: readonly string[]) => (alias: string) =>
  sql.join(
    fields.map(
      (field) => sql`NULLIF(${cellOf(definition, field, alias)}, '') AS ${sql.ref(field)}`,
    ),
  );

/**
 * RFC 4180 quoting of a cell, for the embedded store's batches (COPY quotes its own): a cell
 * holding a comma, a quote, a CR or an LF is quoted, its quotes doubled. A CR or an LF alone is a
 * line break to most readers, so it is quoted too, as COPY does.
 */
const quoted = (text: RawBuilder<unknown>) =>
  sql`CASE WHEN ${text} ~ ('[",' || chr(13) || chr(10) || ']') THEN '"' || replace(${text}, '"', '""') || '"' ELSE ${text} END`;

/**
 * A whole CSV record (without its line end), for the embedded store's batches. Each cell's text is
 * computed once, in subqueries PostgreSQL may not fold into the record's expression (`OFFSET 0`):
 * written inline, the quoting's three mentions of a cell and the neutralising's three mentions of
 * its text computed it again each time (up to nine `to_char` calls for one timestamp), and an
 * export of 100,000 devices spent a quarter of its time on that.
 */
export const csvLine =
  (definition: ResourceDefinition, fields: readonly string[]) => (alias: string) => {
    const cell = (index: number) => `c${index}`;
    const texts = fields.map((field, index) => ({
      name: cell(index),
      ...cellText(definition, field, alias),
    }));
    const computed = sql.join(texts.map(({ name, text }) => sql`${text} AS ${sql.ref(name)}`));
    const cells = sql.join(
      texts.map(({ name, freeText }) => {
        const text = sql.ref(`texts.${name}`);
        return sql`coalesce(${freeText ? neutralised(text) : text}, '') AS ${sql.ref(name)}`;
      }),
    );
    // Only a free text can hold a quote, a comma or a line break: the others are written as
    // they are. Testing them too took the batches of 100,000 devices from 1.28 s to 1.49 s.
    const record = sql.join(
      texts.map(({ name, freeText }) => {
        const ref = sql.ref(`cells.${name}`);
        return freeText ? quoted(ref) : ref;
      }),
    );
    return sql`(SELECT concat_ws(',', ${record})
    FROM (SELECT ${cells} FROM (SELECT ${computed} OFFSET 0) AS texts OFFSET 0) AS cells)`;
  };

const CRLF = Buffer.from('\r\n');
const QUOTE = 0x22;
const LF = 0x0a;

/**
 * COPY ends each record with LF; the export's records end with CRLF (RFC 4180, and what it has
 * always written). An LF inside a quoted cell is the cell's own and is kept: a byte is outside
 * quotes when the quotes before it are balanced (a doubled quote inside a cell toggles twice).
 */
async function* crlfRecords(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let inQuotes = false;
  for await (const chunk of chunks) {
    const parts: Buffer[] = [];
    let start = 0;
    let position = 0;
    // Found with indexOf (memchr) rather than byte by byte: most records hold no quote at all.
    let quote = chunk.indexOf(QUOTE);
    while (position < chunk.length) {
      if (inQuotes) {
        if (quote === -1) break;
        inQuotes = false;
        position = quote + 1;
        quote = chunk.indexOf(QUOTE, position);
        continue;
      }
      const lineEnd = chunk.indexOf(LF, position);
      if (quote !== -1 && (lineEnd === -1 || quote < lineEnd)) {
        inQuotes = true;
        position = quote + 1;
        quote = chunk.indexOf(QUOTE, position);
        continue;
      }
      if (lineEnd === -1) break;
      parts.push(chunk.subarray(start, lineEnd), CRLF);
      start = lineEnd + 1;
      position = start;
    }
    parts.push(chunk.subarray(start));
    yield Buffer.concat(parts);
  }
}

/** The embedded store's export: the header, then one text per batch of EXPORT_BATCH records. */
async function* batchedRecords(
  db: AnyDatabase,
  definition: ResourceDefinition,
  selection: ExportSelection,
  fields: readonly string[],
): AsyncGenerator<string> {
  // Field names are identifiers (definition.ts): nothing to quote or neutralise. The header goes
  // out with the first batch, so a statement PostgreSQL refuses fails before anything is sent.
  let header = `${fields.join(',')}\r\n`;
  const line = csvLine(definition, fields);
  let after: unknown[] | undefined;
  for (;;) {
    const batch = await exportBatch(db, definition, selection, fields, line, EXPORT_BATCH, after);
    const records = batch.rows > 0 ? `${batch.text}\r\n` : '';
    if (header || records) yield header + records;
    header = '';
    if (batch.rows < EXPORT_BATCH) return;
    after = batch.lastKey;
  }
}

/**
 * A stream of the export whose first chunk has already been read. A statement PostgreSQL refuses
 * (a filter value it cannot hold, such as a NUL byte) then fails here, before the answer's
 * headers, and gets the same 400 the list gets instead of a download cut short after a 200.
 */
async function startedStream(chunks: AsyncIterable<Buffer | string>): Promise<Readable> {
  const iterator = chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* whole() {
    try {
      if (first.done) return;
      yield first.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        yield next.value;
      }
    } finally {
      await iterator.return?.();
    }
  }
  return Readable.from(whole(), { objectMode: false });
}

/** A list's answers, JSON first: what an Accept that takes any type, or both equally, gets. */
const LIST_TYPES = ['application/json', 'text/csv'];

/**
 * Whether a list request asks for CSV: `?format=csv`, or an Accept that prefers text/csv by its
 * quality values (`text/csv;q=0` refuses it; among equals, the order the client gave).
 */
export function wantsCsv(request: FastifyRequest, format: string | undefined): boolean {
  if (format !== undefined) return format === 'csv';
  const accept = request.headers.accept;
  // What most clients send needs no parsing.
  if (accept === undefined || accept === '*/*' || accept === 'application/json') return false;
  return new Negotiator({ headers: { accept } }).mediaType(LIST_TYPES) === 'text/csv';
}

export interface ExportRequest {
  sort: readonly SortKey[];
  conditions: readonly Condition[];
  ranges: readonly RangeFilter[];
  fields?: readonly string[];
}

/** The columns an export writes (every visible one unless asked for fewer) and its rows. */
const exportParts = (definition: ResourceDefinition, request: ExportRequest) => ({
  fields: request.fields ?? visibleColumns(definition),
  selection: { sort: request.sort, conditions: request.conditions, ranges: request.ranges },
});

/**
 * The `COPY … TO STDOUT` an export runs on PostgreSQL, its values written in as literals. Also
 * what the benchmark runs alone, as the export's baseline: PostgreSQL's own pace for its rows.
 */
export function exportCopyText(
  db: AnyDatabase,
  definition: ResourceDefinition,
  request: ExportRequest,
): string {
  const { fields, selection } = exportParts(definition, request);
  const statement = exportRowsStatement(
    db,
    definition,
    selection,
    fields,
    copyCells(definition, fields),
  );
  return `COPY (${inlineParameters(statement.sql, statement.parameters)}) TO STDOUT (FORMAT csv, HEADER true)`;
}

export async function sendCsv(
  reply: FastifyReply,
  db: AnyDatabase,
  definition: ResourceDefinition,
  request: ExportRequest,
) {
  const copyOut = copyOutOf(db as unknown as Kysely<never>);
  let csv: Readable;
  if (copyOut) {
    const text = exportCopyText(db, definition, request);
    const giveBack = await exportSlots.take();
    const copy = copyOut(text, EXPORT_DEADLINE_MS);
    const end = () => {
      copy.destroy();
      giveBack();
    };
    try {
      csv = await startedStream(crlfRecords(copy));
    } catch (error) {
      end();
      throw error;
    }
    // A client that goes away ends the COPY (its connection is then closed, not reused).
    csv.on('close', end);
  } else {
    const { fields, selection } = exportParts(definition, request);
    csv = await startedStream(batchedRecords(db, definition, selection, fields));
  }
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${definition.name}.csv"`)
    .send(csv);
}
