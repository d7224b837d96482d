import type { FastifyRequest } from 'fastify';
import type { RawBuilder } from 'kysely';
import { type TSchema, Type } from 'typebox';
import type { ApiTokenScope } from '../auth/api-tokens.js';
import type { Access, Role } from '../auth/roles.js';
import type { ParameterOf } from '../db/statement-template.js';

/** What a column holds; the lookups it offers follow from it (lookups.ts). */
export type ColumnKind =
  | 'text'
  | 'enum'
  | 'integer'
  | 'timestamp'
  | 'uuid'
  | 'ip'
  /** A MAC address: text with one canonical form (lower case), found in any letter case. */
  | 'mac'
  | 'boolean'
  | 'tags'
  /** A JSON object (jsonb); no lookups. */
  | 'json'
  /** A set of values from an enumeration (text[]); no lookups. */
  | 'list'
  /** An outbound http(s) URL the service will call: checked against the SSRF policy on write. */
  | 'url';

/**
 * A resource is declared, not programmed: its table, its columns and what each may be used for,
 * who may write it, and the few hooks for behaviour that is really its own. routes.ts derives
 * the HTTP schemas and the endpoints from this; list.ts, rows.ts and writes.ts the SQL.
 */
export interface ColumnDefinition {
  /** Schema of one non-null value; validates bodies and query filters alike. */
  schema: TSchema;
  /** Needed on create and on full replace (PUT). Required columns are never null. */
  required?: boolean;
  /** The value a create or replace stores when the field is absent (mirrors the DB default). */
  default?: string | number | boolean | readonly string[] | Readonly<Record<string, unknown>>;
  /**
   * Never null, not even when optional: the column is NOT NULL with a default in the database (a
   * status, a role, a flag; a tag list is empty instead). An absent field gets the default; null
   * is refused by the request's validation with a 400 naming the field, as NetBox refuses null
   * for a status, rather than reset to the default: a client sending null means "no value",
   * which such a field cannot hold. test/nullable-fields.test.ts checks every column's
   * declaration against its table.
   */
  notNull?: boolean;
  /**
   * What the column holds, which decides the lookups it offers (lookups.ts). Inferred from the
   * schema when absent (kindOf).
   */
  kind?: ColumnKind;
  /**
   * Free text that may run over several lines (a description, a postal address, an event's
   * message): line feeds, carriage returns and tabs are kept there. Every other text refuses
   * the control characters (writtenValueSchema), as every filter value does: a value no filter
   * can hold could never be found by its exact value.
   */
  multiline?: boolean;
  /**
   * Names a record to a person (a hostname, a location's name, an interface's name): besides
   * the control characters, a written value refuses the characters nobody sees, the format
   * characters (Unicode category Cf: zero-width spaces and joiners, bidirectional marks,
   * embeddings, overrides and isolates, the soft hyphen, U+FEFF, the tag characters) and the
   * line and paragraph separators, and the spaces other than U+0020 (the no-break space and the
   * like: IDENTIFIER_TEXT). Otherwise `core1` and `core` with a zero width space inside would be
   * two records that look the same in every list, log, page and export. Only what is written is
   * checked: filters still take such characters, so a record stored with one before can be
   * found, read and renamed. Never `multiline`.
   */
  identifier?: boolean;
  /**
   * What the range lookups (`__lt`, `__lte`, `__gt`, `__gte`) compare, when the stored text's
   * order is not the values' order: an SQL expression applied alike to the column and to the
   * value (a speed `2.5Gbps` read as the number 2.5; as text, `100Gbps` < `2Gbps`). `operand` is
   * either, as an `sql` template takes it.
   */
  rangeAs?: (operand: unknown) => RawBuilder<unknown>;
  /** Exact-match query filter `?column=value`. */
  filterable?: boolean;
  /** Usable in `?sortby=column:asc|desc`. */
  sortable?: boolean;
  /**
   * No two rows hold the same value: the table has a unique constraint on this column alone
   * (test/unique-columns.test.ts checks every declaration against the tables). A sort on a
   * unique column that is never null needs no tie-breaker: its own unique index orders the
   * rows, and the list needs no `(column, id)` index beside it (list.ts, orderOf).
   */
  unique?: boolean;
  /**
   * A trigram index (pg_trgm, `gin_trgm_ops`) on this column serves its substring lookups
   * (`__ic`, `__isw`, `__iew`, `__ie`): a list filtered by one reads its matching rows first
   * whenever its exact total is small (list.ts, matchedByTrigrams). Checked against the tables
   * like `unique` (test/trigram-columns.test.ts).
   */
  trigramIndexed?: boolean;
  /** Another resource this column points to; a dangling value is a 400 naming the column. */
  references?: string;
  /**
   * The value of another column in another form (an interface's speed_mbps is its speed in
   * Mbps): `from` turns that column's value into this one's, `to` this one's into that one's. A
   * write that gives either sets both, so no write leaves them disagreeing: a value fills the
   * other form, null for the one given clears both, and two values that differ are a 400. The
   * write's own values decide; no stored row is read (routes.ts, inBothForms).
   */
  formOf?: {
    column: string;
    from: (value: unknown) => unknown;
    to: (value: unknown) => unknown;
  };
  /**
   * Few distinct values, filtered often (a vendor, a status): the writes keep a count per value
   * and per pair of values of two counted columns (migration 014), so a list filtered by one or
   * two of them has its exact total without counting. The migration installing the counters
   * names the same columns (test/value-counts.test.ts checks both agree).
   */
  counted?: boolean;
  /**
   * Write-only and sealed: accepted in bodies, stored encrypted with the service's sealing key
   * (resources/sealing.ts), never selected, returned, listed, exported or written to the audit
   * trail in clear.
   */
  secret?: boolean;
  /**
   * Written by the service (a write hook), never by a client: in answers, not in request
   * bodies (an API token's prefix, who created it).
   */
  readOnly?: boolean;
}

/** The endpoints a resource may offer (routes.ts). */
export const RESOURCE_OPERATIONS = [
  /** GET /: the list (filters, sort, paging, CSV export). */
  'list',
  /** GET /{id}. */
  'read',
  /** POST / with one record. */
  'create',
  /** POST / with an array of records or a CSV file, created all or none. */
  'bulk-create',
  /** PUT /{id}. */
  'replace',
  /** PATCH /{id}. */
  'update',
  /** DELETE /{id}. */
  'delete',
  /** PATCH / with an array of partial records. */
  'batch-update',
  /** DELETE / with an array of ids. */
  'batch-delete',
  /** GET /{id}/history: the record's audit rows (admins). */
  'history',
] as const;
export type ResourceOperation = (typeof RESOURCE_OPERATIONS)[number];

/** A write of one record, as the write hooks see it. */
export type RecordWrite = 'create' | 'replace' | 'update' | 'delete';

export interface PendingWrite {
  operation: RecordWrite;
  request: FastifyRequest;
  /** The record written (absent on create). */
  id?: string;
  /** The values as the request gives them, prepared (defaults, tags, sealed secrets). */
  values: Record<string, unknown>;
}

/**
 * A condition the write must meet in its own statement (so nothing can change it between a
 * check and the write), and the error when it does not.
 */
export interface WriteCondition {
  /** Names the condition's SQL text (statements are compiled once per shape). */
  name: string;
  sql: (param: ParameterOf) => RawBuilder<boolean>;
  values: Record<string, unknown>;
  refusal: () => Error;
}

export interface PreparedWrite {
  /** The columns to write. */
  values: Record<string, unknown>;
  /** Nothing to write after all: the answer is the record as stored. */
  unchanged?: boolean;
  condition?: WriteCondition;
  /** Handed to afterWrite and nowhere else (a token shown once). */
  carried?: unknown;
}

export interface WrittenRecord {
  operation: RecordWrite;
  request: FastifyRequest;
  id: string;
  /** The record as now stored (absent after a delete). */
  row?: Record<string, unknown>;
  carried?: unknown;
}

/** Behaviour of a resource's single-record writes that is really its own. */
export interface WriteHooks {
  /** Checks a write and turns what the client sent into the columns to store. */
  beforeWrite?: (write: PendingWrite) => PreparedWrite | Promise<PreparedWrite>;
  /** After the write committed: the answer to send (the row when it answers nothing). */
  afterWrite?: (
    written: WrittenRecord,
  ) => Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined>;
}

export interface ResourceDefinition {
  /** URL segment and audit resource type, e.g. `devices`. */
  name: string;
  table: string;
  /** `Device not found`. */
  notFoundMessage: string;
  /**
   * What people call one record and several, written as in the middle of a sentence ("device",
   * "VLAN", "API token"); headings capitalise the first letter. From `name` when absent
   * (`resourceLabel`), which fits only names that are plain English plurals.
   */
  label?: ResourceLabel;
  columns: Record<string, ColumnDefinition>;
  /** Roles that may create, change and delete. */
  writeRoles: readonly Role[];
  /** Roles that may read; every authenticated user when absent. */
  readRoles?: readonly Role[];
  /** Messages for named constraints whose generic message would be unclear (409 for unique). */
  constraintMessages?: Record<string, string>;
  /** Nested lists: `/devices/{id}/interfaces` and its count `/devices/{id}/interfacecount`. */
  children?: readonly ChildListDefinition[];
  /**
   * The columns the service maintains, when not all of SYSTEM_COLUMNS: append-only records
   * (events, audit rows) are never updated, so they have no `updated_at`.
   */
  systemColumns?: readonly SystemColumn[];
  /**
   * The combinations of `counted` columns users filter by together: pairs (`vendor` with
   * `status`; a tag list with itself for two tags) and larger ones (`vendor`, `status` and
   * `role`). Each gets a value counter per combination of values, kept by the writes
   * (migrations 018 and 029 install the same combinations; test/value-counts.test.ts checks
   * both agree). A filter on a combination not listed is counted, and its count reused until the
   * next write. A tag list may be named at most twice (lookups.ts reads keys of two tags).
   */
  countedCombinations?: readonly (readonly string[])[];
  /**
   * The lists users ask for most: filtered by one of `filters` (exact match) and sorted by one of
   * `sorts` or in id order. Each (filter, sort) pair has an index `(filter, sort, id)` that
   * INCLUDEs the other filters, so a page is a range of one index, read forwards for ascending
   * and backwards for descending (ties break by id in the sort's direction), and a second filter
   * is tested on the index entry: no sort of the matching rows, no row read from the table
   * before the page (migration 021 creates the same indexes; test/list-indexes.test.ts checks
   * both agree and that lists use them). Their statements are planned once per connection
   * (plannedOnce in list.ts): one plan serves every value. Every other sortable column's own
   * `(column, id)` index INCLUDEs `filters` too, so a walk along any sort tests them on the
   * index entry (migration 025; the same test checks it). A sort on several keys
   * (CommonSort) has an index per filter in the same way, and one of its own that INCLUDEs every
   * filter (migration 026).
   */
  commonLists?: {
    filters: readonly string[];
    sorts: readonly CommonSort[];
  };
  /**
   * The record's JSON, as a list page writes it, kept in a generated column of its row
   * (`_record_json`, migration 027), so a page of whole records copies each row's text instead
   * of writing it: half of PostgreSQL's work for a page of 100 devices. It costs a function call
   * per row written and about 470 bytes per row for devices. The migration names the same fields
   * in the same order as recordFieldOrder (test/record-json.test.ts checks both agree); a column
   * added to such a resource needs install_record_json called again.
   */
  storedRecordJson?: boolean;
  /** Order of a list without `sortby` (then by id); by id alone when absent. */
  defaultSort?: readonly { column: string; direction: 'asc' | 'desc' }[];
  /** A timestamp column bounded by the list parameters `from` and `to` (both inclusive). */
  timeRange?: string;
  /**
   * Text columns `?q=` searches (case-insensitive substring, any of them). Migration 011 indexes
   * the same expression (searchExpression in lookups.ts) with trigrams.
   */
  search?: readonly string[];
  /** Fields of `?brief=true` besides id; the first declared column when absent. */
  briefFields?: readonly string[];
  /** Adjusts the values of a create, replace or update before they are written. */
  prepareWrite?: (values: Record<string, unknown>) => Record<string, unknown>;
  /** The endpoints offered; all of RESOURCE_OPERATIONS when absent. */
  operations?: readonly ResourceOperation[];
  /**
   * Who may call an endpoint, where it differs from readRoles (list, read) and writeRoles (the
   * writes); the history is for admins.
   */
  access?: Partial<Record<ResourceOperation, Access>>;
  /** The API token scopes that may read (list, read) and write, besides signed-in users. */
  apiTokenScopes?: { read?: ApiTokenScope; write?: ApiTokenScope };
  /**
   * Whether writes are recorded in the audit log by the table's triggers (migration 012); true
   * when absent. Telemetry (events) is not.
   */
  audited?: boolean;
  /** Single-record writes only: a resource with hooks offers no bulk create or batches. */
  hooks?: WriteHooks;
  /** Fields a create accepts besides the columns, for beforeWrite to turn into columns. */
  createInputs?: Record<string, TSchema>;
  /** Fields the create's answer adds to the record (afterWrite puts them there). */
  createdFields?: Record<string, TSchema>;
  /**
   * Stored columns only the hooks write, never selected nor returned (a password hash). The
   * audit triggers leave them out of the trail (migration 012).
   */
  hiddenColumns?: readonly string[];
  /**
   * PUT changes the fields sent, as PATCH does, instead of replacing the record (an account is
   * never replaced whole: its password and history stay).
   */
  putChangesFieldsSent?: boolean;
  /** A one-line summary per endpoint in the API document. */
  summaries?: Partial<Record<ResourceOperation, string>>;
}

/**
 * A sort of the common lists: a column, ascending or descending, or several sort keys written as
 * `sortby` takes them (`['model:asc', 'hostname:desc']`), in that order or all reversed. A
 * btree index is read either way, but only as a whole: the keys' directions relative to each
 * other are the index's own, so they are part of the declaration.
 */
export type CommonSort = string | readonly `${string}:${'asc' | 'desc'}`[];

/** A common sort's keys: a column alone ascending. */
export function commonSortKeys(sort: CommonSort): { column: string; direction: 'asc' | 'desc' }[] {
  if (typeof sort === 'string') return [{ column: sort, direction: 'asc' }];
  return sort.map((key) => {
    const [column = '', direction] = key.split(':');
    return { column, direction: direction === 'desc' ? 'desc' : 'asc' };
  });
}

/** Whether a list's sort keys are a common sort, read forwards or backwards. */
export function isCommonSort(
  sort: CommonSort,
  keys: readonly { column: string; direction: 'asc' | 'desc' }[],
): boolean {
  if (typeof sort === 'string') return keys.length === 1 && keys[0]?.column === sort;
  if (sort.length !== keys.length) return false;
  const declared = commonSortKeys(sort);
  const reversed = keys[0]?.direction !== declared[0]?.direction;
  return declared.every(
    (key, index) =>
      keys[index]?.column === key.column && (keys[index]?.direction === key.direction) !== reversed,
  );
}

export interface ResourceLabel {
  singular: string;
  plural: string;
}

/** The definition's label, or one read from its name (`access-points` -> access point(s)). */
export function resourceLabel(
  definition: Pick<ResourceDefinition, 'name' | 'label'>,
): ResourceLabel {
  if (definition.label) return definition.label;
  const plural = definition.name.replace(/[-_]/g, ' ');
  return { singular: plural.replace(/s$/, ''), plural };
}

export const offers = (definition: ResourceDefinition, operation: ResourceOperation): boolean =>
  (definition.operations ?? RESOURCE_OPERATIONS).includes(operation);

/** Columns a client may send: all declared but the read-only ones. */
export const writableColumns: (definition: ResourceDefinition) => readonly string[] = derivedOnce(
  (definition) =>
    Object.entries(definition.columns)
      .filter(([, column]) => !column.readOnly)
      .map(([name]) => name),
);

export interface ChildListDefinition {
  /** Name of the child resource's definition, e.g. `interfaces`. */
  resource: string;
  /** Child column holding the parent's id. */
  foreignKey: string;
  /** Path segment of the list, e.g. `interfaces`. */
  listPath: string;
  /** Path segment of the count, e.g. `interfacecount`. */
  countPath: string;
}

/**
 * The column a user-supplied name (a CSV header, a query parameter) names, if the definition
 * declares it: never a member of Object.prototype (`__proto__`, `constructor`, `toString`…).
 */
export const columnOf = (
  definition: ResourceDefinition,
  name: string,
): ColumnDefinition | undefined =>
  Object.hasOwn(definition.columns, name) ? definition.columns[name] : undefined;

/**
 * A record's id as a list filters by it (`?id__in=a,b`: the records a page names, read in one
 * call): a uuid every resource has and no resource declares.
 */
export const RECORD_ID: ColumnDefinition = { schema: Type.String({ format: 'uuid' }) };

/** The column a filter parameter names: a declared one, or the record's id. */
export const filterColumnOf = (
  definition: ResourceDefinition,
  name: string,
): ColumnDefinition | undefined => (name === 'id' ? RECORD_ID : columnOf(definition, name));

/**
 * What is derived from a definition alone, computed once per definition: the declarations never
 * change, yet every request built these lists again. Frozen, so no caller can change what the
 * others are given.
 */
export function derivedOnce<T>(derive: (definition: ResourceDefinition) => T) {
  const known = new WeakMap<ResourceDefinition, T>();
  return (definition: ResourceDefinition): T => {
    let value = known.get(definition);
    if (value === undefined) {
      value = Object.freeze(derive(definition));
      known.set(definition, value);
    }
    return value;
  };
}

/** Write-only sealed columns (ColumnDefinition.secret): never read back. */
export const secretColumns: (definition: ResourceDefinition) => readonly string[] = derivedOnce(
  (definition) =>
    Object.entries(definition.columns)
      .filter(([, column]) => column.secret === true)
      .map(([name]) => name),
);

/**
 * A schema's own words for the values it takes, where a pattern says it only to a machine
 * (`x-expected: 'a MAC address such as 00:1a:2b:3c:4d:5e'`): a refused query value's message
 * ends `expected <it>`. An OpenAPI extension keyword, which validators ignore. A description
 * documents a parameter and does not complete that sentence.
 */
export const EXPECTED = 'x-expected';
/**
 * In a `propertyNames` schema: the names it refuses that a client might well send, lower case,
 * each with why (the refusal names the property and gives it: `headers.Host: set by the delivery
 * itself; remove it`). Any other name it refuses gets its EXPECTED.
 */
export const REFUSED_NAMES = 'x-refused-names';

/** The words of each `propertyNames` schema made by propertyNamesSchema, by its pattern. */
const PROPERTY_NAME_WORDS = new Map<
  string,
  { refused: Record<string, string>; expected: string }
>();

/**
 * A `propertyNames` schema with its words for a refusal (REFUSED_NAMES, EXPECTED), kept in the
 * document and found again by its pattern: a body's validator reports the pattern, not the schema.
 */
export function propertyNamesSchema(
  pattern: string,
  expected: string,
  refused: Record<string, string> = {},
): { pattern: string; [EXPECTED]: string; [REFUSED_NAMES]?: Record<string, string> } {
  PROPERTY_NAME_WORDS.set(pattern, { refused, expected });
  return {
    pattern,
    [EXPECTED]: expected,
    ...(Object.keys(refused).length > 0 ? { [REFUSED_NAMES]: refused } : {}),
  };
}

/** Why `name` is refused by the propertyNames schema of `pattern`, if propertyNamesSchema made it. */
export function propertyNameRefusal(pattern: unknown, name: string): string | undefined {
  const words = typeof pattern === 'string' ? PROPERTY_NAME_WORDS.get(pattern) : undefined;
  if (!words) return undefined;
  return words.refused[name.toLowerCase()] ?? `not ${words.expected}`;
}

/** Text without control characters (U+0000 to U+001F, U+007F): every filter value, most text. */
export const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001f\\u007f]+$';

/** Lines of text (ColumnDefinition.multiline): tabs and line breaks, no other control. */
export const LINES_OF_TEXT = '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]+$';

/**
 * The characters that show nothing where they stand: the format characters (Cf) and the line
 * and paragraph separators, which most lists, logs and terminals draw as nothing or as a space.
 * Written for the inside of a character class read with the `u` flag, as JSON Schema patterns
 * are (and Ajv reads them), where `\p{Cf}` follows the Unicode version of the running Node.
 */
const INVISIBLE_CHARACTERS = '\\p{Cf}\\u2028\\u2029';
const INVISIBLE_CHARACTER = new RegExp(`[${INVISIBLE_CHARACTERS}]`, 'gu');

/**
 * The space separators (Unicode category Zs) but the ordinary space U+0020: the no-break space,
 * the narrow one, the en, em, thin and hair spaces, the ideographic space. Each is drawn as a
 * space (the ogham mark, in some fonts, as a dash), so `core 1` written with one and with U+0020
 * would be two records that look alike.
 * Listed, not `\p{Zs}`, because a JSON Schema pattern has no class subtraction.
 */
const LOOK_ALIKE_SPACES = '\\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000';
const LOOK_ALIKE_SPACE = new RegExp(`[${LOOK_ALIKE_SPACES}]`, 'gu');

/**
 * Text naming a record (ColumnDefinition.identifier): no control characters, no invisible
 * characters (INVISIBLE_CHARACTERS) and no space but U+0020 (LOOK_ALIKE_SPACES).
 */
export const IDENTIFIER_TEXT = `^[^\\u0000-\\u001f\\u007f${INVISIBLE_CHARACTERS}${LOOK_ALIKE_SPACES}]+$`;

/** The invisible characters of a text, each once, in the order they first appear. */
export function invisibleCharactersIn(text: string): string[] {
  return [...new Set(text.match(INVISIBLE_CHARACTER) ?? [])];
}

/** The spaces of a text other than U+0020, each once, in the order they first appear. */
export function lookAlikeSpacesIn(text: string): string[] {
  return [...new Set(text.match(LOOK_ALIKE_SPACE) ?? [])];
}

/**
 * The schema of a value a client writes to a column: the column's own, and for free text (a
 * string with no pattern or format of its own) without control characters, or for a
 * `multiline` column without any but line breaks and tabs, or for an `identifier` without
 * invisible characters either. A pattern or format of a column's own admits no control
 * character either (test/control-characters.test.ts checks every column), nor an identifier's
 * any invisible one (test/invisible-characters.test.ts).
 */
export function writtenValueSchema(column: ColumnDefinition): TSchema {
  const schema = column.schema as TSchema & { type?: unknown; pattern?: unknown; format?: unknown };
  if (schema.type !== 'string' || schema.pattern !== undefined || schema.format !== undefined) {
    return column.schema;
  }
  const pattern = column.multiline
    ? LINES_OF_TEXT
    : column.identifier
      ? IDENTIFIER_TEXT
      : NO_CONTROL_CHARACTERS;
  return { ...schema, pattern };
}

/** Columns every resource has and nobody writes. */
export const SYSTEM_COLUMNS = ['id', 'created_at', 'updated_at'] as const;
export type SystemColumn = (typeof SYSTEM_COLUMNS)[number];

export const systemColumnsOf = (definition: ResourceDefinition): readonly SystemColumn[] =>
  definition.systemColumns ?? SYSTEM_COLUMNS;

// Column builders: the common shapes, so a definition reads like the table it describes.

const TEXT_MAX = 255;
const INT_MAX = 2_147_483_647;

export const text = (options: Partial<ColumnDefinition> & { maxLength?: number } = {}) => {
  const { maxLength = TEXT_MAX, ...rest } = options;
  return { schema: Type.String({ minLength: 1, maxLength }), ...rest } satisfies ColumnDefinition;
};

export const oneOf = (values: readonly string[], options: Partial<ColumnDefinition> = {}) =>
  ({
    schema: Type.Union(values.map((value) => Type.Literal(value))),
    ...options,
  }) satisfies ColumnDefinition;

export const integer = (
  options: Partial<ColumnDefinition> & { minimum?: number; maximum?: number } = {},
) => {
  const { minimum = 0, maximum = INT_MAX, ...rest } = options;
  return { schema: Type.Integer({ minimum, maximum }), ...rest } satisfies ColumnDefinition;
};

/** An IPv4 or IPv6 address (the `ip` format is registered with the validator in app.ts). */
export const ipAddress = (options: Partial<ColumnDefinition> = {}) =>
  ({ schema: Type.String({ format: 'ip' }), ...options }) satisfies ColumnDefinition;

export const macAddress = (options: Partial<ColumnDefinition> = {}) =>
  ({
    schema: Type.String({
      pattern: '^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$',
      examples: ['00:1a:2b:3c:4d:5e'],
      [EXPECTED]: 'a MAC address such as 00:1a:2b:3c:4d:5e',
    }),
    kind: 'mac',
    ...options,
  }) satisfies ColumnDefinition;

/** True or false, never null: a flag has no third state. */
export const flag = (options: Partial<ColumnDefinition> = {}) =>
  ({ schema: Type.Boolean(), notNull: true, ...options }) satisfies ColumnDefinition;

export const timestamp = (options: Partial<ColumnDefinition> = {}) =>
  ({ schema: Type.String({ format: 'date-time' }), ...options }) satisfies ColumnDefinition;

/**
 * A timestamp as the API keeps it: to the millisecond, the precision its answers show (a
 * JavaScript Date's). Digits of the fraction beyond the third are dropped from the text, so what
 * is stored is what a GET shows and a filter finds (PostgreSQL would keep microseconds). The
 * offset is kept: offsets are whole minutes, so truncating the local time truncates the UTC one.
 */
export const toMilliseconds = (value: string): string => value.replace(/^([^.]*\.\d{3})\d+/, '$1');

/** A date-time as the query schema takes it: date, time, milliseconds, finer digits, offset. */
const FINE_DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})\.(\d{3})(\d+)([Zz]|[+-]\d{2}(?::?\d{2})?)$/;

/**
 * An exclusive upper bound or an inclusive lower bound (`__lt`, `__gte`) read to the
 * millisecond: with digits below the millisecond it is rounded up to the next one, as no stored
 * value lies between (`< .123456` holds for a stored `.123`, truncated to `< .123` it did not;
 * `>= .123456` must not find `.123`). Other values are truncated as toMilliseconds does. A value
 * the rounding cannot read (a leap second) is kept whole: PostgreSQL compares it exactly.
 */
export function toMillisecondsUp(value: string): string {
  const parts = FINE_DATE_TIME.exec(value);
  if (!parts || /^0+$/.test(parts[4] ?? '')) return toMilliseconds(value);
  const [, date, time, milliseconds, , zone = ''] = parts;
  const offset = /^[Zz]$/.test(zone)
    ? 'Z'
    : `${zone.slice(0, 3)}:${zone.replace(':', '').slice(3) || '00'}`;
  const at = Date.parse(`${date}T${time}.${milliseconds}${offset}`);
  if (!Number.isFinite(at)) return value;
  const next = new Date(at + 1).toISOString();
  return /^\d{4}-/.test(next) ? next : value;
}

export const reference = (resource: string, options: Partial<ColumnDefinition> = {}) =>
  ({
    schema: Type.String({ format: 'uuid' }),
    references: resource,
    ...options,
  }) satisfies ColumnDefinition;

/** A tag: a slug of lower-case letters, digits, `-` and `_`, 1 to 64 characters. */
export const TAG_PATTERN = '^[a-z0-9_-]{1,64}$';
export const MAX_TAGS_PER_RECORD = 50;
export const TagSchema = Type.String({
  pattern: TAG_PATTERN,
  maxLength: 64,
  [EXPECTED]: 'a tag: 1 to 64 lower-case letters, digits, - and _',
});

/**
 * A record's tags: a set of slugs, stored sorted and without duplicates in a `text[]` column
 * with a GIN index (migration 011). `?tags=a&tags=b` matches records carrying all of them.
 */
export const tagList = (options: Partial<ColumnDefinition> = {}) =>
  ({
    schema: Type.Array(TagSchema, { maxItems: MAX_TAGS_PER_RECORD }),
    kind: 'tags',
    notNull: true,
    default: [],
    filterable: true,
    ...options,
  }) satisfies ColumnDefinition;

/** Tags as stored: sorted, each once. */
export const normaliseTags = (tags: readonly string[]): string[] => [...new Set(tags)].sort();

/** The columns holding tags (at most one in practice). */
export const tagColumns: (definition: ResourceDefinition) => readonly string[] = derivedOnce(
  (definition) =>
    Object.entries(definition.columns)
      .filter(([, column]) => column.kind === 'tags')
      .map(([name]) => name),
);

/** A new record's values: the absent fields that declare a default get it. */
export function withDefaults(
  definition: ResourceDefinition,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const defaults = Object.entries(definition.columns)
    .filter(([name, column]) => column.default !== undefined && values[name] === undefined)
    .map(([name, column]) => [name, column.default]);
  return { ...Object.fromEntries(defaults), ...values };
}

export const filterableColumns: (definition: ResourceDefinition) => readonly string[] = derivedOnce(
  (definition) =>
    Object.entries(definition.columns)
      .filter(([, column]) => column.filterable)
      .map(([name]) => name),
);

/** Sortable columns plus created_at, which every resource has and indexes. */
export const sortableColumns: (definition: ResourceDefinition) => readonly string[] = derivedOnce(
  (definition) => [
    ...Object.entries(definition.columns)
      .filter(([, column]) => column.sortable)
      .map(([name]) => name),
    'created_at',
  ],
);

/** A JSON object stored as jsonb (its shape is the schema's). */
export const jsonObject = (schema: TSchema, options: Partial<ColumnDefinition> = {}) =>
  ({ schema, kind: 'json', ...options }) satisfies ColumnDefinition;

/** A set of values of an enumeration (text[]), each at most once. */
export const listOf = (values: readonly string[], options: Partial<ColumnDefinition> = {}) =>
  ({
    schema: Type.Array(Type.Union(values.map((value) => Type.Literal(value))), {
      uniqueItems: true,
      maxItems: values.length,
    }),
    kind: 'list',
    notNull: true,
    default: [],
    ...options,
  }) satisfies ColumnDefinition;

/** Longest outbound URL accepted (browsers and proxies commonly stop near 2 KiB). */
export const MAX_URL_LENGTH = 2048;

/**
 * A URL the service calls (http or https). Its host is checked against the SSRF policy when
 * written (resources/routes.ts, webhooks/targets.ts) and again when called.
 */
export const outboundUrl = (options: Partial<ColumnDefinition> = {}) =>
  ({
    schema: Type.String({
      format: 'uri',
      minLength: 8,
      maxLength: MAX_URL_LENGTH,
      pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$',
      // A reserved name that never resolves (RFC 6761): Swagger UI's "Try it out" sends the
      // example, and any address that resolves would receive the inventory's changes. Private,
      // loopback and documentation addresses are refused by the SSRF policy, so the example is
      // refused too (`the host receiver.example does not resolve`): the URL is the reader's own.
      examples: ['https://receiver.example/inventory-hook'],
    }),
    kind: 'url',
    ...options,
  }) satisfies ColumnDefinition;

/** A write-only secret: stored sealed, never returned (ColumnDefinition.secret). */
export const secretText = (
  options: Partial<ColumnDefinition> & { minLength?: number; maxLength?: number } = {},
) => {
  const { minLength = 16, maxLength = 256, ...rest } = options;
  return {
    schema: Type.String({
      minLength,
      maxLength,
      pattern: '^[\\x21-\\x7e]+$',
      writeOnly: true,
      description: 'Write-only: stored sealed, never returned.',
    }),
    secret: true,
    ...rest,
  } satisfies ColumnDefinition;
};

/**
 * Why two forms of one value in `values` disagree (ColumnDefinition.formOf: an interface's
 * speed_mbps that is not its speed), naming the column; undefined when none do. The rule a write
 * refuses (routes.ts, inBothForms), for a check made before writing (the web interface's import
 * preview). Pure: `values` as the write gives them, nothing stored is read.
 */
export function disagreeingForms(
  definition: Pick<ResourceDefinition, 'columns'>,
  values: Readonly<Record<string, unknown>>,
): { column: string; reason: string } | undefined {
  for (const [name, column] of Object.entries(definition.columns)) {
    const form = column.formOf;
    const own = values[name] ?? null;
    const other = form ? (values[form.column] ?? null) : null;
    if (!form || own === null || other === null) continue;
    const derived = form.from(other);
    if (own !== derived) {
      const reason = `${own} is not ${form.column} ${other} (${derived}): give one of them, or both alike`;
      return { column: name, reason };
    }
  }
  return undefined;
}
