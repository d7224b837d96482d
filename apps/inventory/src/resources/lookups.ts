import { type RawBuilder, sql } from 'kysely';
import { type TSchema, Type } from 'typebox';
import type { ParameterOf } from '../db/statement-template.js';
import { badRequest } from '../errors.js';
import { DECIMAL_INTEGER, matchesSchema } from '../http/validation.js';
import {
  type ColumnDefinition,
  type ColumnKind,
  filterColumnOf,
  NO_CONTROL_CHARACTERS,
  type ResourceDefinition,
  toMilliseconds,
  toMillisecondsUp,
} from './definition.js';

/**
 * Lookup expressions (`?hostname__ic=core`, `?vlan_id__gte=100`), NetBox's and django-filter's
 * idea: a column's kind decides which lookups it offers, from the one table below; one parser
 * (the query schema, schemas.ts, then parseConditions) and one SQL builder (conditionSql) serve
 * every resource. Nothing here is written per resource.
 */

export const LOOKUPS = [
  'n',
  'in',
  'lt',
  'lte',
  'gt',
  'gte',
  'ic',
  'nic',
  'isw',
  'iew',
  'ie',
  'isnull',
] as const;
export type Lookup = (typeof LOOKUPS)[number];

/** What each lookup means, for the API document's lookup grammar (http/openapi.ts). */
export const LOOKUP_MEANINGS: Readonly<Record<Lookup, string>> = {
  n: 'not equal (nulls included)',
  in: 'any of a comma-separated list (at most 100 values; a value cannot contain a comma)',
  lt: 'less than (nulls never match)',
  lte: 'less than or equal',
  gt: 'greater than',
  gte: 'greater than or equal',
  ic: 'contains, ignoring case',
  nic: 'does not contain, ignoring case (nulls included)',
  isw: 'starts with, ignoring case',
  iew: 'ends with, ignoring case',
  ie: 'equals, ignoring case',
  isnull: '`true`: the field is empty; `false`: it is not',
};

/** What a condition compares: the lookups, the exact match, all of a tag list, and `?q=`. */
export type Operator = Lookup | 'exact' | 'all' | 'search';

const ORDERED: readonly Lookup[] = ['lt', 'lte', 'gt', 'gte'];
type RangeLookup = 'lt' | 'lte' | 'gt' | 'gte';
const RANGE_OPERATORS: Readonly<Record<RangeLookup, string>> = {
  lt: '<',
  lte: '<=',
  gt: '>',
  gte: '>=',
};
const TEXT_MATCH: readonly Lookup[] = ['ic', 'nic', 'isw', 'iew', 'ie'];

/** The one table: which lookups each kind of column offers. */
export const LOOKUPS_BY_KIND: Readonly<Record<ColumnKind, readonly Lookup[]>> = {
  text: ['n', 'in', ...ORDERED, ...TEXT_MATCH, 'isnull'],
  // An enumeration is matched as text but has no meaningful order.
  enum: ['n', 'in', ...TEXT_MATCH, 'isnull'],
  integer: ['n', 'in', ...ORDERED, 'isnull'],
  timestamp: ['n', 'in', ...ORDERED, 'isnull'],
  uuid: ['n', 'in', 'isnull'],
  // inet orders addresses numerically (10.0.0.9 < 10.0.0.10), which is what a range means.
  ip: ['n', 'in', ...ORDERED, 'isnull'],
  mac: ['n', 'in', ...ORDERED, ...TEXT_MATCH, 'isnull'],
  boolean: ['n', 'isnull'],
  // `?tags=a&tags=b` (all of them) is the tag filter; a list has no lookups.
  tags: [],
  json: [],
  list: [],
  url: [],
};

/** The SQL type of a kind, for the `__in` list's elements. */
const SQL_TYPE: Readonly<Record<ColumnKind, string>> = {
  text: 'text',
  enum: 'text',
  integer: 'bigint',
  timestamp: 'timestamptz',
  uuid: 'uuid',
  ip: 'inet',
  mac: 'text',
  boolean: 'boolean',
  tags: 'text[]',
  json: 'jsonb',
  list: 'text[]',
  url: 'text',
};

/**
 * The one form a value of a kind is stored in, where one value has several spellings: a MAC
 * address in lower case (`AA:BB:…` is `aa:bb:…`), a timestamp to the millisecond
 * (toMilliseconds). Every write stores it so (routes.ts) and a filter compares it so
 * (parseConditions), so a value is found however it was written.
 */
export const CANONICAL_FORM: Readonly<Partial<Record<ColumnKind, (text: string) => string>>> = {
  mac: (text) => text.toLowerCase(),
  timestamp: toMilliseconds,
};

/**
 * A name (ColumnDefinition.identifier) in Unicode's composed form, NFC: `é` typed as one
 * character (U+00E9) and as `e` followed by a combining acute accent (U+0065 U+0301) is one name,
 * drawn the same everywhere, as `café` copied from a macOS file name and typed on a keyboard
 * are. Stored as sent, the two were two records that look alike, which the unique index let
 * through; stored in one form, the second is a conflict.
 */
export const nameForm = (text: string) => text.normalize('NFC');

/** The one form a column's values are stored in: its kind's (CANONICAL_FORM), a name's NFC. */
export function canonicalFormOf(column: ColumnDefinition): ((text: string) => string) | undefined {
  const ofKind = CANONICAL_FORM[kindOf(column)];
  if (!column.identifier) return ofKind;
  return ofKind ? (text) => ofKind(nameForm(text)) : nameForm;
}

/**
 * The forms a filter on a name looks for: the one the API stores, and the one given if it
 * differs, so that a name stored before names were kept in NFC (one that migration 036 could not
 * compose without taking another record's name) is still found as written.
 */
const formsOfName = (given: string, canonical: (text: string) => string) => {
  const stored = canonical(given);
  return stored === given ? [given] : [stored, given];
};

/** A column's kind: declared, else read from its schema. */
export function kindOf(column: ColumnDefinition): ColumnKind {
  if (column.kind) return column.kind;
  const schema = column.schema as { type?: unknown; format?: unknown; anyOf?: unknown };
  // An object, or a union with one (an object or null): JSON, not an enumeration.
  const branches = Array.isArray(schema.anyOf) ? (schema.anyOf as Array<{ type?: unknown }>) : [];
  if (schema.type === 'object' || branches.some((branch) => branch.type === 'object')) {
    return 'json';
  }
  if (branches.length > 0) return 'enum';
  if (schema.type === 'integer') return 'integer';
  if (schema.type === 'boolean') return 'boolean';
  if (schema.format === 'uuid') return 'uuid';
  if (schema.format === 'date-time') return 'timestamp';
  if (schema.format === 'ip') return 'ip';
  return 'text';
}

/** Longest `__ic`/`?q=` text: as long as a text column. */
const MATCH_MAX = 255;
/**
 * Longest `__in` parameter and most values in it: a value the document allows must fit in a URI
 * the service reads (MAX_URI_LENGTH, 8190), with room for the path and other parameters.
 */
const IN_MAX_LENGTH = 4096;
export const IN_MAX_VALUES = 100;

/**
 * Text to match: no control characters (the search expression joins columns with one, see
 * searchExpression, so a match cannot span two columns).
 */
export const MatchText = Type.String({
  minLength: 1,
  maxLength: MATCH_MAX,
  pattern: NO_CONTROL_CHARACTERS,
});

/**
 * The query schema of a value compared with a column (`column=`, `__n`, `__lt`…): the column's
 * own, and for free text, without control characters, as every text a list matches
 * (MatchText). A text column with a pattern of its own (a MAC address, a username) keeps it: it
 * admits no control character either (test/queries.test.ts checks every filterable column).
 */
export function filterValueSchema(column: ColumnDefinition): TSchema {
  const schema = column.schema as TSchema & { type?: unknown; pattern?: unknown };
  if (kindOf(column) !== 'text' || schema.type !== 'string' || schema.pattern !== undefined) {
    return column.schema;
  }
  return { ...schema, pattern: NO_CONTROL_CHARACTERS };
}

/** The query schema of `column__lookup` for a column. */
export function lookupSchema(column: ColumnDefinition, lookup: Lookup): TSchema {
  if (lookup === 'isnull') return Type.Boolean();
  if (TEXT_MATCH.includes(lookup)) return MatchText;
  if (lookup === 'in') {
    return Type.String({
      minLength: 1,
      maxLength: IN_MAX_LENGTH,
      pattern: NO_CONTROL_CHARACTERS,
      description: `Comma-separated values (at most ${IN_MAX_VALUES}), each typed like the field.`,
    });
  }
  return filterValueSchema(column);
}

/** Every `column__lookup` query parameter a definition offers, with its schema. */
export function lookupParameters(
  definition: ResourceDefinition,
  filterable: readonly string[],
): Record<string, TSchema> {
  const parameters: Record<string, TSchema> = {};
  for (const name of filterable) {
    const column = definition.columns[name];
    if (!column) continue;
    for (const lookup of LOOKUPS_BY_KIND[kindOf(column)]) {
      parameters[`${name}__${lookup}`] = lookupSchema(column, lookup);
    }
  }
  return parameters;
}

/** One condition of a list: a column (or `q`), what it is compared with, and the value. */
export interface Condition {
  column: string;
  operator: Operator;
  value: unknown;
}

/** `%`, `_` and `\` match literally in a LIKE pattern once escaped (`\` is LIKE's escape). */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** The LIKE pattern of a text match. */
function likePattern(operator: Operator, text: string): string {
  const escaped = escapeLike(text);
  switch (operator) {
    case 'ic':
    case 'nic':
    case 'search':
      return `%${escaped}%`;
    case 'isw':
      return `${escaped}%`;
    case 'iew':
      return `%${escaped}`;
    default:
      return escaped;
  }
}

/** One `__in` item as the column's type, or a 400 naming the parameter. */
function inItem(parameter: string, column: ColumnDefinition, kind: ColumnKind, text: string) {
  const value: unknown =
    kind === 'integer' && DECIMAL_INTEGER.test(text)
      ? Number(text)
      : kind === 'boolean'
        ? text === 'true'
          ? true
          : text === 'false'
            ? false
            : text
        : text;
  if (!matchesSchema(column.schema, value)) {
    throw badRequest(`Invalid value in query parameter ${parameter}: ${JSON.stringify(text)}`);
  }
  return value;
}

/** The parameter name a condition's value is bound to; its shape token names it too. */
const parameterName = (condition: Pick<Condition, 'column' | 'operator'>) =>
  `where:${condition.column}__${condition.operator}`;

/**
 * A condition's part of a statement's shape. `isnull` compiles to `IS NULL` or `IS NOT NULL`
 * (an index can serve either), so its value is part of the text.
 */
export const conditionShape = (condition: Condition) =>
  condition.operator === 'isnull'
    ? `${condition.column}__isnull:${condition.value === true}`
    : `${condition.column}__${condition.operator}${inForms(condition) ? ':forms' : ''}`;

/**
 * A name's `__n` or text match given in a form the API does not store (not NFC): its value is
 * the list of forms to look for, the stored one and the one given (formsOfName), so that a name
 * stored as written before is matched, or excluded, as its exact filter finds it.
 */
const inForms = (condition: Condition) =>
  Array.isArray(condition.value) &&
  (condition.operator === 'n' ||
    condition.operator === 'search' ||
    TEXT_MATCH.includes(condition.operator as Lookup));

/**
 * A test of either of a condition's two forms (inForms: composed, and as given), written as an
 * OR of the two rather than `ILIKE ANY`: a trigram index serves each side of an OR, and no
 * array comparison.
 */
const eitherForm = (forms: unknown, test: (form: RawBuilder<unknown>) => RawBuilder<unknown>) =>
  sql`(${test(sql`(CAST(${forms} AS text[]))[1]`)} OR ${test(sql`(CAST(${forms} AS text[]))[2]`)})`;

/** The value bound for a condition (the LIKE pattern of a text match). */
export function conditionValues(conditions: readonly Condition[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const condition of conditions) {
    const { operator, value } = condition;
    if (operator === 'isnull') continue;
    values[parameterName(condition)] =
      inForms(condition) && operator !== 'n'
        ? (value as string[]).map((form) => likePattern(operator, form))
        : TEXT_MATCH.includes(operator as Lookup) || operator === 'search'
          ? likePattern(operator, String(value))
          : operator === 'in'
            ? JSON.stringify(value)
            : value;
  }
  return values;
}

/** Where `q` looks: the declared text columns joined by a separator no `q` can contain. */
export function searchExpression(
  definition: ResourceDefinition,
  alias?: string,
): RawBuilder<unknown> {
  const parts = (definition.search ?? []).map((name) => {
    const column = definition.columns[name];
    const ref = sql.ref(alias ? `${alias}.${name}` : name);
    const text = column && kindOf(column) === 'ip' ? sql`host(${ref})` : ref;
    return sql`coalesce(${text}, '')`;
  });
  return sql`(${sql.join(parts, sql` || E'\\x1f' || `)})`;
}

/**
 * Most values of one tag list a counter key holds: two, as `least`/`greatest` in
 * valueCounterKey put them in the trigger's order.
 */
const COUNTED_TAGS = 2;

/**
 * The values a condition fixes, when a value counter can hold its rows: an exact match on a
 * `counted` column is one value; all of some tags of a `counted` tag list one per tag.
 */
export function countedValues(definition: ResourceDefinition, condition: Condition): number {
  if (definition.columns[condition.column]?.counted !== true) return 0;
  if (condition.operator === 'exact') return 1;
  if (condition.operator !== 'all' || !Array.isArray(condition.value)) return 0;
  const tags = condition.value as unknown[];
  return new Set(tags).size === tags.length ? tags.length : 0;
}

/** The order of COLLATE "C", in which the writes put a counter key's columns and tags. */
export const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** A combination of columns as the writes name it (migration 029): in byte order, joined. */
const combinationName = (columns: readonly string[]) => [...columns].sort(byteOrder).join(',');

/**
 * Whether one value counter holds the number of rows matching `conditions` (migrations 014,
 * 018 and 029): every condition fixes values of `counted` columns, and the columns of those
 * values (a tag list's once per tag) are one value or a declared combination.
 */
export function servedByValueCounter(
  definition: ResourceDefinition,
  conditions: readonly Condition[],
): boolean {
  if (conditions.length === 0) return false;
  if (new Set(conditions.map((condition) => condition.column)).size !== conditions.length) {
    return false;
  }
  const columns: string[] = [];
  for (const condition of conditions) {
    const fixed = countedValues(definition, condition);
    if (fixed === 0 || fixed > COUNTED_TAGS) return false;
    for (let n = 0; n < fixed; n++) columns.push(condition.column);
  }
  if (columns.length === 1) return true;
  const name = combinationName(columns);
  return (definition.countedCombinations ?? []).some(
    (combination) => combinationName(combination) === name,
  );
}

/**
 * What the text of valueCounterKey's SQL depends on besides the conditions' shapes: how many
 * tags each fixes. Part of a statement template's key (statement-template.ts).
 */
export function valueCounterShape(
  definition: ResourceDefinition,
  conditions: readonly Condition[],
): number[] | null {
  if (!servedByValueCounter(definition, conditions)) return null;
  return conditions.map((condition) => countedValues(definition, condition));
}

/**
 * The key of the value counter holding the exact number of rows matching `conditions`, when
 * one does (above). Keys are built as the trigger builds them: columns in byte order, each value
 * as its column type's text form (a uuid in lower case whatever the client sent), two tags of
 * one list in byte order (COLLATE "C", which is the order of String comparison for slugs).
 */
export function valueCounterKey(
  definition: ResourceDefinition,
  conditions: readonly Condition[],
  param: ParameterOf,
): RawBuilder<unknown> | undefined {
  if (!servedByValueCounter(definition, conditions)) return undefined;
  const parts = [...conditions]
    .sort((a, b) => (a.column < b.column ? -1 : 1))
    .flatMap((condition) => {
      const name = sql.lit(condition.column);
      const value = param(parameterName(condition));
      if (condition.operator === 'all') {
        const tag = (index: number) => sql`(CAST(${value} AS text[]))[${sql.lit(index)}]`;
        // Ordered in byte order, then back in the default collation: a key of collation "C"
        // cannot be looked up in the counters' primary key (default collation), and PostgreSQL
        // then reads every counter of every table to find one.
        const inByteOrder = (pick: 'least' | 'greatest') =>
          sql`${sql.raw(pick)}(${tag(1)} COLLATE "C", ${tag(2)} COLLATE "C") COLLATE "default"`;
        return (condition.value as unknown[]).length === 1
          ? [name, tag(1)]
          : [name, inByteOrder('least'), name, inByteOrder('greatest')];
      }
      const spec = definition.columns[condition.column];
      const type = sql.raw(spec ? SQL_TYPE[kindOf(spec)] : 'text');
      return [name, sql`CAST(CAST(${value} AS ${type}) AS text)`];
    });
  return sql`ARRAY[${sql.join(parts)}]::text[]`;
}

/** The SQL of one condition. */
export function conditionSql(
  definition: ResourceDefinition,
  condition: Condition,
  param: ParameterOf,
  alias?: string,
): RawBuilder<unknown> {
  const { column, operator } = condition;
  if (operator === 'search') {
    const searched = searchExpression(definition, alias);
    const pattern = param(parameterName(condition));
    return inForms(condition)
      ? eitherForm(pattern, (form) => sql`${searched} ILIKE ${form}`)
      : sql`${searched} ILIKE ${pattern}`;
  }
  const ref = sql.ref(alias ? `${alias}.${column}` : column);
  const value = param(parameterName(condition));
  const spec = filterColumnOf(definition, column);
  const kind = spec ? kindOf(spec) : 'timestamp';
  if (spec?.rangeAs && ORDERED.includes(operator as Lookup)) {
    return sql`${spec.rangeAs(ref)} ${sql.raw(RANGE_OPERATORS[operator as RangeLookup])} ${spec.rangeAs(value)}`;
  }
  if (inForms(condition)) {
    if (operator === 'n') return sql`(${ref} IS NULL OR ${ref} <> ALL (CAST(${value} AS text[])))`;
    const matches = eitherForm(value, (form) => sql`${ref} ILIKE ${form}`);
    return operator === 'nic' ? sql`(${ref} IS NULL OR NOT ${matches})` : matches;
  }
  switch (operator) {
    case 'exact':
      return sql`${ref} = ${value}`;
    case 'all':
      return sql`${ref} @> ${value}::text[]`;
    case 'n':
      return sql`${ref} IS DISTINCT FROM ${value}`;
    case 'in':
      return sql`${ref} IN (SELECT value::${sql.raw(SQL_TYPE[kind])} FROM jsonb_array_elements_text(${value}::jsonb))`;
    case 'lt':
      return sql`${ref} < ${value}`;
    case 'lte':
      return sql`${ref} <= ${value}`;
    case 'gt':
      return sql`${ref} > ${value}`;
    case 'gte':
      return sql`${ref} >= ${value}`;
    case 'ic':
    case 'isw':
    case 'iew':
    case 'ie':
      return sql`${ref} ILIKE ${value}`;
    case 'nic':
      return sql`(${ref} IS NULL OR ${ref} NOT ILIKE ${value})`;
    case 'isnull':
      return condition.value === true ? sql`${ref} IS NULL` : sql`${ref} IS NOT NULL`;
  }
}

/**
 * A validated list query's filters as conditions: `column=value` (exact; all of the tags for a
 * tag list), `column__lookup=value`, `q=text`. The query schema already admits only declared
 * parameters with values of the right type; `__in` lists are split and typed here.
 */
export function parseConditions(
  definition: ResourceDefinition,
  filters: Readonly<Record<string, unknown>>,
): Condition[] {
  const conditions: Condition[] = [];
  for (const [parameter, given] of Object.entries(filters)) {
    if (given === undefined) continue;
    if (parameter === 'q') {
      // Names are stored composed (NFC) and other text as sent: a text not composed is looked
      // for both ways.
      const composed = typeof given === 'string' ? nameForm(given) : given;
      const value = composed !== given ? [composed, given] : given;
      conditions.push({ column: 'q', operator: 'search', value });
      continue;
    }
    const [column = '', lookup] = parameter.split('__');
    const spec = filterColumnOf(definition, column);
    const kind = spec ? kindOf(spec) : undefined;
    // A value is compared in the form the API stores (canonicalFormOf); a timestamp's
    // lower-exclusive or upper-inclusive bound is rounded up (toMillisecondsUp). Text matches
    // (`__ic`…) ignore case already and match parts of values. A name given in a form the API
    // does not store (not NFC) is looked for in both forms: its exact value as `__in` both,
    // `__n` and the text matches as a list of forms (inForms).
    const canonical = spec ? canonicalFormOf(spec) : undefined;
    const named = spec?.identifier === true && canonical !== undefined;
    const forms =
      named && typeof given === 'string' && lookup !== 'in' && canonical(given) !== given
        ? formsOfName(given, canonical)
        : undefined;
    const value =
      typeof given !== 'string' ||
      !canonical ||
      lookup === 'in' ||
      TEXT_MATCH.includes(lookup as Lookup)
        ? given
        : kind === 'timestamp' && (lookup === 'lt' || lookup === 'gte')
          ? toMillisecondsUp(given)
          : canonical(given);
    if (lookup === undefined) {
      conditions.push(
        forms
          ? { column, operator: 'in', value: forms }
          : { column, operator: kind === 'tags' ? 'all' : 'exact', value },
      );
      continue;
    }
    if (!spec || !kind || !(LOOKUPS_BY_KIND[kind] as readonly string[]).includes(lookup)) {
      throw badRequest(`Unknown query parameter: ${parameter}`);
    }
    if (forms && (lookup === 'n' || TEXT_MATCH.includes(lookup as Lookup))) {
      conditions.push({ column, operator: lookup as Lookup, value: forms });
      continue;
    }
    if (lookup === 'in') {
      const items = String(value).split(',');
      if (items.length > IN_MAX_VALUES) {
        throw badRequest(`Query parameter ${parameter} has more than ${IN_MAX_VALUES} values`);
      }
      conditions.push({
        column,
        operator: 'in',
        // A name is checked as given; its composed form may be longer (inCanonicalForm).
        value: items.flatMap((item) =>
          named && canonical
            ? formsOfName(String(inItem(parameter, spec, kind, item)), canonical)
            : [inItem(parameter, spec, kind, canonical ? canonical(item) : item)],
        ),
      });
      continue;
    }
    conditions.push({ column, operator: lookup as Lookup, value });
  }
  // A fixed order: the same conditions, whatever their order in the URL, are one statement.
  return conditions.sort((a, b) =>
    conditionShape(a) < conditionShape(b) ? -1 : conditionShape(a) > conditionShape(b) ? 1 : 0,
  );
}
