import { type ApiError, badRequest, conflict, unauthorized } from '../errors.js';
import { PLAIN_UUID } from '../http/validation.js';

/**
 * PostgreSQL errors a client can cause, turned into the API's answers. The constraints live in
 * the database; this is where their violations become a 400 or 409 naming the field. Anything
 * not listed here is a server fault (500).
 */
interface PostgresError {
  code: string;
  constraint?: string;
  column?: string;
  detail?: string;
}

function isPostgresError(error: unknown): error is PostgresError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    /^[0-9A-Z]{5}$/.test((error as { code: string }).code)
  );
}

/** `Key (hostname)=(r1) already exists.` -> `hostname` (both drivers send this detail). */
function keyColumns(detail: string | undefined): string | undefined {
  const match = /^Key \(([^)]*)\)=/.exec(detail ?? '');
  return match?.[1];
}

/** The column a conventionally named constraint is about: `devices_status_check` -> `status`. */
function constraintColumn(constraint: string | undefined, table: string | undefined) {
  if (!constraint) return undefined;
  const bare = constraint.replace(/_(check|key|fkey)$/, '');
  return table && bare.startsWith(`${table}_`) ? bare.slice(table.length + 1) : bare;
}

/** Deleting, deactivating or demoting the last active admin (migration 016's trigger). */
export const LAST_ADMIN_SQLSTATE = 'IA001';
/**
 * A write whose identity was revoked between its authentication and the write (migration 020's
 * check in the writing transaction): a 401 with the database's message.
 */
export const REVOKED_PRINCIPAL_SQLSTATE = 'IA002';

export interface ConstraintMessages {
  /** constraint name -> message, for constraints whose generic message would be unclear. */
  readonly [constraint: string]: string;
}

export function translateDatabaseError(
  error: unknown,
  messages: ConstraintMessages,
): ApiError | undefined {
  if (!isPostgresError(error)) return undefined;
  const named = error.constraint ? messages[error.constraint] : undefined;
  const table = (error as { table?: string }).table;
  switch (error.code) {
    case '23505': // unique_violation
      return conflict(named ?? `${keyColumns(error.detail) ?? 'value'} already exists`);
    case '23503': {
      // foreign_key_violation: a body field points at a record that does not exist.
      const column = keyColumns(error.detail) ?? constraintColumn(error.constraint, table);
      return badRequest(named ?? `${column}: referenced record does not exist`);
    }
    case '23514': // check_violation
      return badRequest(
        named ?? `Invalid value for ${constraintColumn(error.constraint, table) ?? 'a field'}`,
      );
    case '23502': // not_null_violation
      return badRequest(`${error.column ?? 'A required field'} must not be null`);
    case '22P02': // invalid_text_representation
    case '22007': // invalid_datetime_format
    case '22008': // datetime_field_overflow
      return badRequest('Invalid value format');
    case LAST_ADMIN_SQLSTATE: // raised by users_keep_an_admin (migration 016), message and all
      return conflict((error as { message?: string }).message ?? 'Conflict');
    case REVOKED_PRINCIPAL_SQLSTATE: // raised by inventory_require_principal (migration 020)
      return unauthorized((error as { message?: string }).message);
    case '22001': // string_data_right_truncation
      return badRequest('Value too long');
    case '22003': // numeric_value_out_of_range
      return badRequest('Number out of range');
    case '22021': // character_not_in_repertoire: a NUL character in text
    case '22P05': // untranslatable_character
      return badRequest('Text contains a character that cannot be stored (e.g. NUL)');
    default:
      // Class 22 is "data exception": a value the statement was given, and every value in
      // these statements comes from the client.
      return error.code.startsWith('22') ? badRequest('Invalid value') : undefined;
  }
}

/** `a, LEAST(a, b)` split at its top-level commas (a value or an expression may hold one). */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === ',' && depth === 0) {
      parts.push(text.slice(start, index).trim());
      start = index + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}

/** One expression of a key as an item's fields give it, as PostgreSQL prints it in a detail. */
interface KeyPart {
  fields: string[];
  valueOf(item: Readonly<Record<string, unknown>>): string | undefined;
}

/**
 * A field's value as the detail prints it: exactly as given (a plain column compares case by
 * case, so `R1` is not the `r1` a detail names), except a uuid, which PostgreSQL prints in lower
 * case whatever case the client wrote.
 */
const textOf = (held: unknown) => {
  if (held === undefined || held === null) return undefined;
  const text = String(held);
  return PLAIN_UUID.test(text) ? text.toLowerCase() : text;
};

/**
 * A key expression as PostgreSQL names it in a detail: a column (`hostname`), `lower(column)`
 * (case-insensitive keys), or `LEAST(a, b)`/`GREATEST(a, b)` (a pair in either order, as links
 * have). Undefined for any other: the item cannot be told.
 */
function keyPart(expression: string): KeyPart | undefined {
  if (/^\w+$/.test(expression)) {
    return { fields: [expression], valueOf: (item) => textOf(item[expression]) };
  }
  const call = /^(\w+)\((.*)\)$/.exec(expression);
  const name = call?.[1]?.toLowerCase();
  const fields = topLevelParts(call?.[2] ?? '');
  if (!fields.every((field) => /^\w+$/.test(field))) return undefined;
  if (name === 'lower' && fields.length === 1) {
    // Only a lower() part is case-insensitive: the detail prints its value in lower case.
    return { fields, valueOf: (item) => textOf(item[fields[0] ?? ''])?.toLowerCase() };
  }
  if (name !== 'least' && name !== 'greatest') return undefined;
  return {
    fields,
    valueOf: (item) => {
      const values = fields.map((field) => textOf(item[field]));
      if (values.some((value) => value === undefined)) return undefined;
      const sorted = (values as string[]).sort();
      return name === 'least' ? sorted[0] : sorted.at(-1);
    },
  };
}

/**
 * A key violation's detail, `Key (<expressions>)=(<values>) already exists.` (or `is not present
 * in table …`, both drivers send it), as the key's parts and its value text as printed.
 */
function violatedKey(detail: string | undefined) {
  const text = detail ?? '';
  const separator = text.indexOf(')=(');
  if (!text.startsWith('Key (') || separator === -1) return undefined;
  const parts = topLevelParts(text.slice('Key ('.length, separator)).map(keyPart);
  if (parts.length === 0 || parts.some((part) => part === undefined)) return undefined;
  return {
    parts: parts as KeyPart[],
    value: text.slice(separator + 3, text.lastIndexOf(')')),
  };
}

/**
 * Whether `error` is a key violation naming its value (`Key (hostname)=(r1) already exists.`):
 * the only error withItemIndex can name an item for, so the only one worth reading stored rows
 * for. A timeout or a lost connection is not one; reading again would only wait again.
 */
export const namesKeyValue = (error: unknown): boolean =>
  isPostgresError(error) && violatedKey(error.detail) !== undefined;

/**
 * A database error of a bulk write or batch PATCH, named after the item that caused it: `Item 3
 * (hostname): Hostname already exists`. The item is the one whose fields give the key value
 * PostgreSQL names in its detail (`Key (hostname)=(r1) ...`), compared as a whole, so a value
 * holding a comma is found too; the field named is the key's last part (`name` of a device's
 * interface names, both ends of a link's pair). Errors naming no value, or no item's, are left as
 * they are (the error handler translates them).
 *
 * `stored` (a batch PATCH's rows as they were, by item) completes an item that changes only part
 * of a key: an interface renamed on the device it stays on is told by its stored device. An item
 * that sends no part of the key is never named, though its stored row holds the value.
 */
export function withItemIndex(
  error: unknown,
  items: readonly Record<string, unknown>[],
  messages: ConstraintMessages,
  label: (index: number) => string = (index) => `Item ${index}`,
  stored: readonly (Record<string, unknown> | undefined)[] = [],
): unknown {
  const translated = translateDatabaseError(error, messages);
  if (!translated || !isPostgresError(error)) return error;
  const key = violatedKey(error.detail);
  if (!key) return error;
  const asWritten = (item: Record<string, unknown>, index: number) => {
    const row = stored[index];
    const sendsPart = key.parts.some((part) =>
      part.fields.some((field) => item[field] !== undefined),
    );
    return row && sendsPart ? { ...row, ...item } : item;
  };
  const holders = items
    .map((item, index) => ({
      values: key.parts.map((part) => part.valueOf(asWritten(item, index))),
      index,
    }))
    .filter(
      ({ values }) =>
        values.every((value) => value !== undefined) && values.join(', ') === key.value,
    )
    .map(({ index }) => index);
  // Two items with one unique value: the second is the clash; one item: it clashes with a row.
  const index = holders.length > 1 ? holders[1] : holders[0];
  if (index === undefined) return error;
  const field = key.parts.at(-1)?.fields.join(', ') ?? '';
  // A message naming its field already (`location_id: Location not found`) names it once.
  const reason = translated.message.replace(`${field}: `, '');
  translated.message = `${label(index)} (${field}): ${reason}`;
  return translated;
}
