import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { FastifySchemaCompiler } from 'fastify';
import {
  EXPECTED,
  IDENTIFIER_TEXT,
  invisibleCharactersIn,
  LINES_OF_TEXT,
  lookAlikeSpacesIn,
  NO_CONTROL_CHARACTERS,
} from '../resources/definition.js';
import { ENTITY_TAG_PATTERN } from '../resources/etags.js';

/**
 * Two validators instead of Fastify's one. Query strings and path parameters arrive as text, so
 * they are coerced to the schema's types (`?limit=5` -> 5, a single `sortby` -> a one-item
 * array). Bodies are JSON and already typed: coercing them would turn `{"mtu": 0}` into null
 * for a nullable column or `{"vlan_id": true}` into VLAN 1, so a body must match as sent.
 * Unknown fields are reported, never silently removed.
 */
function createAjv(coerceTypes: Options['coerceTypes'], verbose = false) {
  const ajv = new Ajv({
    coerceTypes,
    // The value and schema of a failed rule, for a message quoting them (error-handler.ts).
    verbose,
    useDefaults: true,
    removeAdditional: false,
    // Fastify's own choice: allErrors makes validation cost grow with hostile input.
    allErrors: false,
    // TypeBox schemas carry no unknown keywords, but stay lenient like Fastify's default.
    strict: false,
  });
  addFormats.default(ajv);
  // Any IPv4 or IPv6 address, as the database's inet type accepts for a host.
  // Any IPv4 or IPv6 address in the forms the document names (`ipv4`, `ipv6`; see openapi.ts)
  // and the database's inet type stores as a host: no zone index, no prefix length.
  const { ipv4, ipv6 } = fullFormats as unknown as Record<'ipv4' | 'ipv6', RegExp>;
  ajv.addFormat('ip', (value: string) => ipv4.test(value) || ipv6.test(value));
  ajv.addFormat('date-time', storableDateTime);
  ajv.addFormat('uuid', PLAIN_UUID);
  return ajv;
}

/**
 * A uuid as PostgreSQL's uuid type reads it in every query: the 8-4-4-4-12 hexadecimal form.
 * ajv's own format also takes `urn:uuid:…`, which reached the database as a nameless 400.
 */
export const PLAIN_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const RFC3339_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2})(?::?(\d{2}))?)$/;
/** PostgreSQL refuses a larger offset ("time zone displacement out of range"). */
const MAX_OFFSET_MINUTES = 15 * 60 + 59;
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');
const { validate: rfc3339DateTime } = fullFormats['date-time'] as unknown as {
  validate: (value: string) => boolean;
};

/**
 * An RFC 3339 date-time the database stores as sent and the API answers in the same form: an
 * offset PostgreSQL takes (at most ±15:59), an instant from year 1 to year 9999 in UTC (year 0
 * is refused by PostgreSQL, and one outside would be answered as a BC or five-digit year), and
 * no leap second (PostgreSQL and JavaScript have none: `23:59:60` would be stored as the next
 * minute, and JavaScript cannot read it).
 */
function storableDateTime(value: string): boolean {
  if (!rfc3339DateTime(value)) return false;
  const parts = RFC3339_DATE_TIME.exec(value);
  if (!parts) return false;
  const [
    ,
    year,
    month,
    day,
    hour,
    minute,
    second,
    fraction = '',
    sign,
    offsetHours,
    offsetMinutes,
  ] = parts;
  if (second === '60') return false;
  const offset = sign
    ? (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes ?? 0))
    : 0;
  if (Math.abs(offset) > MAX_OFFSET_MINUTES) return false;
  const local = new Date(0);
  local.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  local.setUTCHours(
    Number(hour),
    Number(minute),
    Number(second),
    Number(fraction.slice(1, 4).padEnd(3, '0')),
  );
  const instant = local.getTime() - offset * 60_000;
  return instant >= FIRST_INSTANT && instant <= LAST_INSTANT;
}

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

/**
 * A body that is one record or an array of them (bulk create): `anyOf: [object, array]`. Ajv
 * would report both branches' errors, the first of which ("must be object") says nothing about
 * an array's bad item; validated by the branch its JSON type picks, an error names the item
 * and the field (`body/3/hostname ...`).
 */
function oneOrMany(schema: unknown): { one: object; many: object } | undefined {
  const branches = (schema as { anyOf?: Array<{ type?: unknown }> }).anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return undefined;
  const one = branches.find((branch) => branch.type === 'object');
  const many = branches.find((branch) => branch.type === 'array');
  return one && many ? { one, many } : undefined;
}

/**
 * A validator compiled at its first use. Fastify compiles every route's schemas when the server
 * starts; compiled there, the inventory's few hundred validators were about a fifth of the CPU of
 * a start and their generated code stayed in memory for routes a service may never be sent.
 * Compiling one takes about a millisecond, paid by the first request of its route.
 */
function compiledOnFirstUse(compile: () => Validate): Validate {
  let compiled: Validate | undefined;
  const validate: Validate = (data) => {
    compiled ??= compile();
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  return validate;
}

/**
 * An integer as a query string or path writes it: plain decimal digits, a leading minus allowed
 * (the schema's range decides whether a negative is). Ajv's coercion reads JavaScript's number
 * syntax, so `vlan_id=0x10` was VLAN 16 and `limit=1e2`, `+10`, `010` and `16.0` were integers.
 */
export const DECIMAL_INTEGER = /^-?(0|[1-9][0-9]*)$/;

/**
 * The booleans of a query string: JSON's, Python's (`requests` writes `True`, so pynetbox sends
 * `brief=True`) and `1`/`0`. Anything else stays text, and the schema refuses it.
 */
const QUERY_BOOLEANS: Readonly<Record<string, boolean>> = {
  true: true,
  True: true,
  '1': true,
  false: false,
  False: false,
  '0': false,
};

type TextType = 'integer' | 'boolean';

/** The parameters of a query or path schema typed integer or boolean (or lists of them). */
function textTypedProperties(schema: unknown): ReadonlyArray<[string, TextType]> {
  const properties = (schema as { properties?: Record<string, unknown> }).properties ?? {};
  const typed: Array<[string, TextType]> = [];
  for (const [name, property] of Object.entries(properties)) {
    const shape = property as { type?: unknown; items?: { type?: unknown } };
    const type = shape.type === 'array' ? shape.items?.type : shape.type;
    if (type === 'integer' || type === 'boolean') typed.push([name, type]);
  }
  return typed;
}

/**
 * Reads the text of integer and boolean parameters as a query string writes them, before the
 * schema's own coercion: booleans in their accepted spellings become booleans; an integer not
 * written in plain decimal digits is the issue returned (as the schema would word it).
 */
function readTypedText(
  typed: ReadonlyArray<[string, TextType]>,
  data: Record<string, unknown>,
): ValidationIssue | undefined {
  for (const [name, type] of typed) {
    const given = data[name];
    if (given === undefined) continue;
    const values = Array.isArray(given) ? given : [given];
    if (type === 'boolean') {
      const read = values.map((value) =>
        typeof value === 'string' && Object.hasOwn(QUERY_BOOLEANS, value)
          ? QUERY_BOOLEANS[value]
          : value,
      );
      data[name] = Array.isArray(given) ? read : read[0];
      continue;
    }
    const bad = values.find((value) => typeof value === 'string' && !DECIMAL_INTEGER.test(value));
    if (bad !== undefined) {
      return {
        instancePath: `/${name}`,
        keyword: 'type',
        params: { type: 'integer' },
        message: 'must be integer',
        data: bad,
      };
    }
  }
  return undefined;
}

/** A query or path validator that reads integers and booleans as text first (readTypedText). */
function readingTypedText(schema: unknown, validate: Validate): Validate {
  const typed = textTypedProperties(schema);
  if (typed.length === 0) return validate;
  const reading: Validate = (data) => {
    const issue =
      data !== null && typeof data === 'object'
        ? readTypedText(typed, data as Record<string, unknown>)
        : undefined;
    if (issue) {
      reading.errors = [issue];
      return false;
    }
    const valid = validate(data);
    reading.errors = validate.errors;
    return valid;
  };
  return reading;
}

export function createValidatorCompiler(): FastifySchemaCompiler<object> {
  // Verbose: a refused identifier's message names the invisible characters its value holds.
  const strict = createAjv(false, true);
  const coercing = createAjv('array', true);
  return ({ schema, httpPart }) =>
    compiledOnFirstUse(() => {
      const branches = httpPart === 'body' ? oneOrMany(schema) : undefined;
      if (branches) {
        const one = strict.compile(branches.one);
        const many = strict.compile(branches.many);
        const validate: Validate = (data) => {
          const chosen = Array.isArray(data) ? many : one;
          const valid = chosen(data);
          validate.errors = chosen.errors;
          return valid;
        };
        return validate;
      }
      if (httpPart === 'body') return strict.compile(schema);
      return readingTypedText(schema, coercing.compile(schema));
    }) as ReturnType<FastifySchemaCompiler<object>>;
}

let valueChecker: ReturnType<typeof createAjv> | undefined;
const compiledChecks = new WeakMap<object, (value: unknown) => boolean>();

/**
 * Whether `value` matches `schema` as a body value would (no coercion), with the same formats
 * as requests: for values the schemas cannot see whole, such as the items of a `__in` list.
 */
export function matchesSchema(schema: object, value: unknown): boolean {
  let check = compiledChecks.get(schema);
  if (!check) {
    valueChecker ??= createAjv(false, true);
    const validate = valueChecker.compile(schema);
    check = (candidate) => validate(candidate) === true;
    compiledChecks.set(schema, check);
  }
  return check(value);
}

const compiledValidators = new WeakMap<
  object,
  ReturnType<ReturnType<typeof createAjv>['compile']>
>();

const CONTROL_CHARACTERS_REFUSED = 'must not contain control characters (U+0000 to U+001F, U+007F)';

/** What is wrong with text that breaks one of the patterns every text column has. */
const TEXT_PATTERN_REASONS: Readonly<Record<string, string>> = {
  [NO_CONTROL_CHARACTERS]: CONTROL_CHARACTERS_REFUSED,
  [LINES_OF_TEXT]:
    'must not contain control characters other than line feeds, carriage returns and tabs',
};

/** A character NO_CONTROL_CHARACTERS refuses. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** `U+200B`: a character as Unicode charts name it, four hex digits at least. */
const codePointOf = (character: string) =>
  `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Invisible characters named in a refusal: enough to find them, never a whole hostile value. */
const NAMED_INVISIBLE_MAX = 3;

/**
 * Why an identifier is refused: its control characters, in the words every text has, else its
 * invisible characters and its spaces other than U+0020 by code point, since nobody can see
 * which ones the value holds.
 */
function identifierReason(value: unknown): string {
  const text = typeof value === 'string' ? value : '';
  if (CONTROL_CHARACTER.test(text)) return CONTROL_CHARACTERS_REFUSED;
  const reasons: string[] = [];
  const invisible = invisibleCharactersIn(text);
  if (invisible.length > 0) {
    reasons.push(`invisible formatting characters (${namedCodePoints(invisible)})`);
  }
  const spaces = lookAlikeSpacesIn(text);
  if (spaces.length > 0) reasons.push(`spaces other than U+0020 (${namedCodePoints(spaces)})`);
  if (reasons.length === 0) return 'must not contain control or invisible formatting characters';
  return `must not contain ${reasons.join(' or ')}`;
}

/** `U+200B, U+200C, U+200D, …`: the first few characters of a list by code point. */
function namedCodePoints(characters: readonly string[]): string {
  const named = characters.slice(0, NAMED_INVISIBLE_MAX).map(codePointOf);
  if (characters.length > NAMED_INVISIBLE_MAX) named.push('…');
  return named.join(', ');
}

/** The reason of an issue that is text breaking a text column's pattern, if it is one. */
export function textPatternReason(issue: ValidationIssue): string | undefined {
  if (issue.keyword !== 'pattern' || typeof issue.params.pattern !== 'string') return undefined;
  if (issue.params.pattern === IDENTIFIER_TEXT) return identifierReason(issue.data);
  return TEXT_PATTERN_REASONS[issue.params.pattern];
}

/** What the validator reports of one failed rule (Ajv's error object, the parts read here). */
export interface ValidationIssue {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  /** With `verbose`: the value that failed and the schema holding the rule. */
  data?: unknown;
  parentSchema?: { description?: unknown; [EXPECTED]?: unknown };
}

/**
 * The field an issue is about and what is wrong with it, in the API's words: one wording per
 * rule wherever a value is checked (a JSON body, an item of a bulk create, a CSV row), so the
 * same mistake reads the same. `path` is the issue's JSON pointer without its leading `/`, the
 * missing or unknown property appended.
 */
export function describeIssue(
  issue: ValidationIssue,
  issues: readonly ValidationIssue[] = [issue],
): { path: string; reason: string } {
  const at = issue.instancePath.replace(/^\//, '');
  const join = (name: unknown) => [at, String(name)].filter(Boolean).join('/');
  if (issue.keyword === 'required')
    return { path: join(issue.params.missingProperty), reason: 'is required' };
  if (issue.keyword === 'additionalProperties') {
    return { path: join(issue.params.additionalProperty), reason: 'is not a known field' };
  }
  if (issue.keyword === 'format' && issue.params.format === 'ip') {
    return { path: at, reason: 'Invalid IP address format' };
  }
  if (issue.keyword === 'format' && issue.params.format === 'uuid') {
    return { path: at, reason: 'must be a UUID' };
  }
  const textReason = textPatternReason(issue);
  if (textReason) return { path: at, reason: textReason };
  if (issue.keyword === 'pattern' && issue.params.pattern === ENTITY_TAG_PATTERN) {
    return { path: at, reason: 'invalid etag: expected an ETag such as "123"' };
  }
  if (issue.keyword === 'enum' && Array.isArray(issue.params.allowedValues)) {
    return { path: at, reason: `must be one of ${issue.params.allowedValues.join(', ')}` };
  }
  // A union of literals (an enumeration): every branch's constant, for the same value.
  if (issue.keyword === 'const') {
    const allowed = issues
      .filter((other) => other.keyword === 'const' && other.instancePath === issue.instancePath)
      .map((other) => String(other.params.allowedValue));
    return { path: at, reason: `must be one of ${allowed.join(', ')}` };
  }
  return { path: at, reason: issue.message ?? 'is invalid' };
}

/**
 * The issue worth reporting: the first that says something (an `anyOf` summary does not, and
 * for `value or null` unions the "must be null" alternative is noise).
 */
export function firstIssue(issues: readonly ValidationIssue[]): ValidationIssue | undefined {
  return (
    issues.find(
      (candidate) => candidate.keyword !== 'anyOf' && candidate.message !== 'must be null',
    ) ?? issues[0]
  );
}

/**
 * An issue of an array's item (`3/ip`) as `Item 3 (ip): Invalid IP address format`, or
 * undefined when the issue is not about an item.
 */
export function itemIssueMessage(
  issue: ValidationIssue,
  issues: readonly ValidationIssue[],
): string | undefined {
  const { path, reason } = describeIssue(issue, issues);
  const match = /^([0-9]+)(?:\/(.*))?$/.exec(path);
  if (!match) return undefined;
  const [, index, field] = match;
  return field ? `Item ${index} (${field}): ${reason}` : `Item ${index}: ${reason}`;
}

/**
 * Why `value` does not match `schema` (as a body would be validated), as ` (<field>): <reason>`,
 * or undefined when it matches: for records read from a file, whose errors must name the row.
 */
export function matchingErrors(schema: object, value: unknown): string | undefined {
  let validate = compiledValidators.get(schema);
  if (!validate) {
    valueChecker ??= createAjv(false, true);
    validate = valueChecker.compile(schema);
    compiledValidators.set(schema, validate);
  }
  if (validate(value)) return undefined;
  const issues = (validate.errors ?? []) as ValidationIssue[];
  const issue = firstIssue(issues);
  if (!issue) return ': invalid';
  const { path, reason } = describeIssue(issue, issues);
  return ` (${path}): ${reason}`;
}
