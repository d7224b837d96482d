import { isIP } from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse as parseCsv } from 'csv-parse/sync';
import fc from 'fast-check';

/**
 * fast-check arbitraries derived from the service's own OpenAPI document: for every operation,
 * requests whose path parameters, query strings and JSON bodies follow the operation's schemas,
 * and requests that break them (wrong types, missing or extra fields, out-of-range and huge
 * numbers, long, unicode and hostile strings, repeated and unknown parameters). Nothing here
 * knows a route by name: a route added to the API is fuzzed by being in the document.
 */

export interface JsonSchema {
  type?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minProperties?: number;
  $ref?: string;
}

interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonSchema;
  style?: string;
  explode?: boolean;
}

/**
 * The query parameters a parameter stands for: itself, or, for an object serialised `form` with
 * `explode` (OpenAPI's default for a query object; the lists' `lookups`), one per property.
 */
export function queryParametersOf(parameter: ParameterObject): ParameterObject[] {
  const exploded =
    parameter.in === 'query' &&
    parameter.schema.type === 'object' &&
    (parameter.style ?? 'form') === 'form' &&
    parameter.explode !== false;
  if (!exploded) return [parameter];
  return Object.entries(parameter.schema.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    schema,
  }));
}

interface MediaObject {
  schema?: JsonSchema;
}

interface OperationObject {
  description?: string;
  security?: unknown[];
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content?: Record<string, MediaObject> };
  responses?: Record<string, { content?: Record<string, MediaObject> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface Operation {
  /** `PATCH /devices`: how figures and failures name the operation. */
  key: string;
  method: string;
  /** The document's path template, `/devices/{id}`. */
  path: string;
  /** The `description` the service writes: who may call it. */
  description: string;
  pathParams: ParameterObject[];
  queryParams: ParameterObject[];
  /** Request headers the document names (If-Match, If-None-Match). */
  headerParams: ParameterObject[];
  body: JsonSchema | undefined;
  /** Status (`200`, `4XX`) -> the JSON schema of that answer, `text` for a plain-text one. */
  responses: Record<string, JsonSchema | 'text' | undefined>;
}

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** Replaces every `{$ref: '#/components/schemas/X'}` by the schema it names. */
function dereference<T>(node: T, document: OpenApiDocument): T {
  if (Array.isArray(node)) return node.map((item) => dereference(item, document)) as T;
  if (node === null || typeof node !== 'object') return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    const name = ref.replace('#/components/schemas/', '');
    const target = document.components?.schemas?.[name];
    if (!target) throw new Error(`Unresolved $ref ${ref}`);
    return dereference(target, document) as T;
  }
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, dereference(value, document)]),
  ) as T;
}

/** Every operation of the document, with its schemas resolved. */
export function operationsOf(raw: OpenApiDocument): Operation[] {
  const document = dereference(raw, raw);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      const parameters = operation.parameters ?? [];
      const responses: Operation['responses'] = {};
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const content = response.content ?? {};
        responses[status] = content['application/json']?.schema
          ? content['application/json'].schema
          : Object.keys(content).some((type) => type.startsWith('text/'))
            ? 'text'
            : undefined;
      }
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        description: operation.description ?? '',
        pathParams: parameters.filter((parameter) => parameter.in === 'path'),
        queryParams: parameters
          .filter((parameter) => parameter.in === 'query')
          .flatMap(queryParametersOf),
        headerParams: parameters.filter((parameter) => parameter.in === 'header'),
        body: operation.requestBody?.content?.['application/json']?.schema,
        responses,
      });
    }
  }
  return operations;
}

/**
 * A reference to a record the test knows, resolved when the request is sent (the records exist
 * only then): `pick` chooses among the resource's live ids, or among its deleted ones, or a live
 * one in upper case (UUIDs are case-insensitive).
 */
export class IdRef {
  constructor(
    readonly resource: string,
    readonly pick: number,
    readonly form: 'live' | 'gone' | 'upper',
  ) {}
}

/**
 * A value the test knows when the request is sent, from one of its pools (the accounts' names
 * and password for a login, the e-mail of an account, a reset code found in the outbox):
 * without them the routes that take secrets would only ever see refusals.
 */
export class Known {
  constructor(
    readonly pool: string,
    readonly pick: number,
  ) {}
}

export interface Resolvers {
  id(ref: IdRef): string;
  /** Undefined leaves the field out (JSON drops it). */
  known(ref: Known): string | undefined;
}

/** Replaces every IdRef and Known in a generated value by a real value. */
export function resolveIds(value: unknown, resolvers: Resolvers): unknown {
  if (value instanceof IdRef) return resolvers.id(value);
  if (value instanceof Known) return resolvers.known(value);
  if (Array.isArray(value)) return value.map((item) => resolveIds(item, resolvers));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, resolveIds(item, resolvers)]),
    );
  }
  return value;
}

/**
 * Strings that are valid values and still hostile: they must be stored and read back as sent.
 * The invisible characters among them are free text's only: a value naming a record refuses
 * them (LOOK_ALIKE_IDENTIFIERS).
 */
export const HOSTILE_VALID_STRINGS = [
  "' OR 1=1 --",
  '"; DROP TABLE devices; --',
  "Robert'); DROP TABLE users;--",
  '1; SELECT pg_sleep(10)',
  "admin'--",
  '\\',
  '%s%n%x',
  // A log4j-style lookup string, on purpose: stored as text, never interpreted.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal text is the test value
  '${jndi:ldap://example.invalid/a}',
  '../../etc/passwd',
  'R&D',
  'a < b > c',
  '\u202eevil\u202c',
  'مرحبا بالعالم',
  'שלום עולם',
  '🛰️📡 𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'e\u0301\u0301\u0301',
  '\u200b\ufeff',
  'tab\tnew\nline\r',
  '{"json": true}',
];

/**
 * Names that look like others and are not: each holds a character nobody sees (a zero width
 * space, a bidirectional override, U+FEFF, a soft hyphen, a line separator, a tag character, a
 * joiner between emoji) or a space that is not U+0020 (no-break, ideographic). Free text stores
 * them as sent; a value naming a record (a hostname, a location's name), whose pattern refuses
 * them, is refused with a 400 that names the code point.
 */
export const LOOK_ALIKE_IDENTIFIERS = [
  'core\u200b1',
  '\u202eevil\u202c',
  '\ufeffcore1',
  'core\u00ad1',
  'core\u20281',
  'core\u{e0041}1',
  'desk-👩\u200d💻',
  '\u2066core1\u2069',
  'core\u00a01',
  'core\u30001',
];

/** Strings the service must refuse (or store exactly): markup, NUL, lone surrogates, 10k chars. */
export const HOSTILE_INVALID_STRINGS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg/onload=alert(1)>',
  '&lt;b&gt;',
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udfff',
  'x'.repeat(10_000),
  '\u202e'.repeat(300),
  '',
];

/** Well-formed outbound URLs (webhooks) that resolve nowhere private, or nowhere at all. */
export const OUTBOUND_URLS_VALID = [
  'https://hooks.example.com/inventory',
  'http://receiver.invalid/hook?x=1',
];

/**
 * Well-formed URLs that point at this machine, a private network or a cloud metadata service,
 * in the spellings that slip past naive checks: the service must refuse every one (400) unless
 * WEBHOOK_ALLOW_PRIVATE_TARGETS is set.
 */
export const HOSTILE_OUTBOUND_URLS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]:8080/',
  'http://2130706433/',
  'http://0x7f.0.0.1/',
  'http://0177.0.0.1/',
  'http://127.1/',
  'http://localhost:3000/users',
  'http://[::1]/',
  'http://[::]/',
  'http://0.0.0.0/',
  'http://10.0.0.1/',
  'http://192.168.1.1/',
  'http://172.16.0.1/',
  'http://100.64.0.1/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://[fe80::1]/',
  'http://[ff02::1]/',
  'http://localtest.me/',
];

/** Not an http(s) URL a webhook may have. */
export const INVALID_OUTBOUND_URLS = [
  'ftp://example.com/',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'gopher://127.0.0.1:6379/_FLUSHALL',
  'http://user:password@example.com/',
  'http://',
  ' http://example.com/',
  'http://exa mple.com/',
  'http://example.com/\r\nX-Injected: 1',
  `http://example.com/${'a'.repeat(5000)}`,
];

const SQL_AND_MARKUP = fc.constantFrom(...HOSTILE_VALID_STRINGS, ...HOSTILE_INVALID_STRINGS);

/** Text that is plausibly valid: ASCII, any unicode, or a hostile-but-valid string. */
function plainText(minLength: number, maxLength: number): fc.Arbitrary<string> {
  const max = Math.max(minLength, Math.min(maxLength, 40));
  return fc
    .oneof(
      { weight: 6, arbitrary: fc.string({ minLength, maxLength: max }) },
      { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength: max }) },
      { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_VALID_STRINGS) },
      {
        weight: 1,
        arbitrary: fc.constant('y'.repeat(Math.min(maxLength, 10_000))),
      },
    )
    .filter((text) => text.length >= minLength && [...text].length <= maxLength);
}

const IPV6 = fc.constantFrom('::1', '2001:db8::1', 'fe80::1', '2001:db8:0:1::42', '::');

/** Instants between 1970 and 2100 as the service writes them back (ISO 8601, ms, Z). */
const isoInstant = fc
  .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z') })
  .filter((date) => !Number.isNaN(date.getTime()))
  .map((date) => date.toISOString());

export interface GenerationOptions {
  /** The resource whose ids a UUID field holds (`location_id` -> `locations`); undefined: any. */
  resourceOf(field: string, operation: Operation): string | undefined;
  /** Candidate field names for `sortby` (real ones, and ones that are not). */
  sortFields(operation: Operation): string[];
  /** The test's pool of known values for a string field, if it has one (see Known). */
  knownPool?(field: string, operation: Operation): string | undefined;
}

function uuidValue(resource: string | undefined): fc.Arbitrary<unknown> {
  const random = fc.uuid();
  if (!resource) return random;
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc.nat().map((pick) => new IdRef(resource, pick, 'live')),
    },
    { weight: 1, arbitrary: fc.nat().map((pick) => new IdRef(resource, pick, 'gone')) },
    { weight: 1, arbitrary: fc.nat().map((pick) => new IdRef(resource, pick, 'upper')) },
    { weight: 1, arbitrary: random },
  );
}

/** Values that match `schema`; `field` names the value for id lookups. */
export function validValue(
  schema: JsonSchema,
  field: string,
  operation: Operation,
  options: GenerationOptions,
): fc.Arbitrary<unknown> {
  if (schema.anyOf) {
    return fc.oneof(...schema.anyOf.map((branch) => validValue(branch, field, operation, options)));
  }
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = schema.minimum ?? -(2 ** 31);
      const max = Math.min(schema.maximum ?? 2 ** 31 - 1, Number.MAX_SAFE_INTEGER);
      return fc.oneof(
        fc.integer({ min, max }),
        fc.constantFrom(min, max),
        fc.integer({ min, max: Math.min(max, min + 100) }),
      );
    }
    case 'number': {
      const min = schema.minimum ?? -1e9;
      const max = schema.maximum ?? 1e9;
      return fc.oneof(
        fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom(min, max),
        fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
      );
    }
    case 'string':
      return validString(schema, field, operation, options);
    case 'array': {
      const item = validValue(schema.items ?? {}, field, operation, options);
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? 5, Math.max(minLength, 5));
      return fc.array(item, { minLength, maxLength });
    }
    case 'object':
      return validObject(schema, operation, options);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * Strings matching `pattern`, made once per pattern and length: fast-check builds such an
 * arbitrary slowly (seconds over the hundreds of lookup parameters that share one pattern).
 */
const matchingArbitraries = new Map<string, fc.Arbitrary<string>>();
function matching(pattern: string, maxLength: number | undefined): fc.Arbitrary<string> {
  const key = `${maxLength ?? ''}/${pattern}`;
  let arbitrary = matchingArbitraries.get(key);
  if (arbitrary === undefined) {
    // The `u` flag: JSON Schema reads a pattern as a Unicode expression, as Ajv does (`\p{Cf}`).
    arbitrary = fc
      .stringMatching(new RegExp(pattern, 'u'))
      .filter((text) => maxLength === undefined || text.length <= maxLength);
    matchingArbitraries.set(key, arbitrary);
  }
  return arbitrary;
}

function validString(
  schema: JsonSchema,
  field: string,
  operation: Operation,
  options: GenerationOptions,
): fc.Arbitrary<unknown> {
  const pool = options.knownPool?.(field, operation);
  if (pool !== undefined) {
    return fc.oneof(
      { weight: 3, arbitrary: fc.nat().map((pick) => new Known(pool, pick)) },
      {
        weight: 1,
        arbitrary: validString(schema, field, operation, { ...options, knownPool: undefined }),
      },
    );
  }
  switch (schema.format) {
    case 'uuid':
      return uuidValue(options.resourceOf(field, operation));
    case 'ip':
      return fc.oneof({ weight: 4, arbitrary: fc.ipV4() }, { weight: 1, arbitrary: IPV6 });
    case 'ipv4':
      return fc.ipV4();
    case 'ipv6':
      return IPV6;
    case 'date-time':
      return isoInstant;
    case 'uri':
      // Outbound URLs (webhooks): public-looking ones and every form of a private target.
      return fc.constantFrom(...OUTBOUND_URLS_VALID, ...HOSTILE_OUTBOUND_URLS);
    case 'email':
      return fc
        .tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.constantFrom('example.com', 'x.invalid'))
        .map(([local, domain]) => `${local}@${domain}`);
    default:
      break;
  }
  if (schema.pattern) return matching(schema.pattern, schema.maxLength);
  return plainText(schema.minLength ?? 0, schema.maxLength ?? 1_000);
}

function validObject(
  schema: JsonSchema,
  operation: Operation,
  options: GenerationOptions,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    record[name] = validValue(property, name, operation, options);
  }
  const required = schema.required ?? [];
  return fc
    .record(record, { requiredKeys: required })
    .filter((value) => Object.keys(value).length >= (schema.minProperties ?? 0));
}

const WRONG_SCALARS: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0.000001,
  2 ** 31,
  2 ** 53 + 1,
  1e308,
  -1e308,
  '',
  '0',
  'true',
  'null',
  [],
  {},
  [1, 2],
  { nested: { deeper: [1] } },
];

/** Values that break `schema` (or, rarely, happen to satisfy it: the service decides). */
export function invalidValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const candidates: fc.Arbitrary<unknown>[] = [fc.constantFrom(...WRONG_SCALARS), SQL_AND_MARKUP];
  const branches = schema.anyOf ?? [schema];
  for (const branch of branches) {
    if (branch.enum) candidates.push(fc.constantFrom('UNKNOWN', 'Active', ' active', 'up\u0000'));
    if (branch.type === 'integer' || branch.type === 'number') {
      const min = branch.minimum ?? 0;
      const max = branch.maximum ?? 2 ** 31 - 1;
      candidates.push(
        fc.constantFrom(min - 1, max + 1, min - 0.5, 0, -1, 0.1, 2 ** 63, -(2 ** 63), 1e21),
        fc.integer().map(String),
        fc.double({ noNaN: true }),
      );
    }
    if (branch.type === 'string') {
      const max = branch.maxLength ?? 1_000;
      candidates.push(fc.constant('x'.repeat(max + 1)), fc.integer(), fc.string());
      if (branch.format === 'uuid') {
        candidates.push(
          fc.constantFrom(
            'not-a-uuid',
            '00000000-0000-0000-0000-00000000000g',
            '{00000000-0000-0000-0000-000000000000}',
            '00000000000000000000000000000000',
            "00000000-0000-0000-0000-000000000000' OR '1'='1",
          ),
        );
      }
      if (branch.format === 'ip' || branch.format === 'ipv4' || branch.format === 'ipv6') {
        candidates.push(fc.constantFrom('256.1.1.1', '1.2.3', '10.0.0.1/24', '::g', 'localhost'));
      }
      if (branch.format === 'date-time') {
        candidates.push(
          fc.constantFrom(
            '2026-13-01T00:00:00Z',
            '2026-02-30T00:00:00Z',
            '0000-01-01T00:00:00Z',
            '+275760-09-13T00:00:00Z',
            'now',
            '2026-01-01',
            '1e10',
          ),
        );
      }
      if (branch.format === 'uri') candidates.push(fc.constantFrom(...INVALID_OUTBOUND_URLS));
      if (branch.pattern) {
        candidates.push(
          fc.constantFrom('no match', 'GG:GG', '1.5.Gbps'),
          fc.constantFrom(...LOOK_ALIKE_IDENTIFIERS),
        );
      }
    }
  }
  return fc.oneof(...candidates);
}

/** Objects near `schema`: one required field dropped, an extra field, or one field wrong. */
function invalidObject(
  schema: JsonSchema,
  operation: Operation,
  options: GenerationOptions,
): fc.Arbitrary<unknown> {
  const valid = validObject(schema, operation, options);
  const properties = Object.entries(schema.properties ?? {});
  const extraName = fc.constantFrom(
    'color',
    '__proto__',
    'constructor',
    'password_hash',
    'id',
    'created_at',
    '<b>x</b>',
    "name'; DROP TABLE devices; --",
    '',
  );
  const mutations: fc.Arbitrary<unknown>[] = [
    fc
      .tuple(valid, extraName, invalidValue({}))
      .map(([value, name, extra]) => JSON.parse(JSON.stringify({ ...value, [name]: extra }))),
    fc.constantFrom(...WRONG_SCALARS, 'a string body', [{}]),
  ];
  if ((schema.required ?? []).length > 0) {
    mutations.push(
      fc.tuple(valid, fc.constantFrom(...(schema.required ?? []))).map(([value, name]) => {
        const { [name]: _dropped, ...rest } = value;
        return rest;
      }),
    );
  }
  if (properties.length > 0) {
    mutations.push(
      fc.oneof(
        ...properties.map(([name, property]) =>
          fc
            .tuple(valid, invalidValue(property))
            .map(([value, wrong]) => ({ ...value, [name]: wrong })),
        ),
      ),
    );
  }
  return fc.oneof(...mutations);
}

/** A body near `schema` that breaks it somewhere (arrays: a bad item, size or duplicates). */
export function invalidBody(
  schema: JsonSchema,
  operation: Operation,
  options: GenerationOptions,
): fc.Arbitrary<unknown> {
  if (schema.anyOf) {
    return fc.oneof(...schema.anyOf.map((branch) => invalidBody(branch, operation, options)));
  }
  if (schema.type === 'array') {
    const item = schema.items ?? {};
    const validItem = validValue(item, 'id', operation, options);
    const badItem =
      item.type === 'object' ? invalidObject(item, operation, options) : invalidValue(item);
    const max = schema.maxItems ?? 1_000;
    return fc.oneof(
      fc.constant([]),
      fc
        .tuple(
          fc.array(validItem, { maxLength: 3 }),
          badItem,
          fc.array(validItem, { maxLength: 3 }),
        )
        .map(([before, bad, after]) => [...before, bad, ...after]),
      validItem.map((value) => [value, value]),
      // The same record twice, once in upper case: uuids are case-insensitive.
      validItem.map((value) => [value, inUpperCase(value)]),
      fc.uuid().map((id) => Array.from({ length: max + 1 }, () => id)),
      invalidValue({}),
    );
  }
  if (schema.type === 'object') return invalidObject(schema, operation, options);
  return invalidValue(schema);
}

/** The same reference in upper case (an IdRef, or an item whose `id` is one). */
function inUpperCase(value: unknown): unknown {
  if (value instanceof IdRef) return new IdRef(value.resource, value.pick, 'upper');
  if (typeof value === 'string') return value.toUpperCase();
  if (value !== null && typeof value === 'object' && 'id' in value) {
    return { ...value, id: inUpperCase((value as { id: unknown }).id) };
  }
  return value;
}

/** Query strings are text: a value of the schema's type written out. */
function asQueryText(value: unknown): unknown {
  if (value instanceof IdRef || value instanceof Known) return value;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export type QueryPart = [name: string, value: unknown];

const ODD_SORT_DIRECTIONS = ['asc', 'desc', 'ASC', 'up', '', 'asc;', 'desc--'];
const UNKNOWN_QUERY_NAMES = [
  'tags',
  'color',
  '__proto__',
  'constructor',
  'password_hash',
  "hostname' OR '1'='1",
  'hostname[]',
  'a.b',
  'sort',
];

function queryArbitrary(
  operation: Operation,
  options: GenerationOptions,
): fc.Arbitrary<QueryPart[]> {
  const parts: fc.Arbitrary<QueryPart>[] = [];
  for (const parameter of operation.queryParams) {
    const { schema, name } = parameter;
    if (schema.type === 'array' && name !== 'sortby' && schema.items) {
      // A repeatable filter (tags): each occurrence one item, valid or not.
      const items = schema.items as JsonSchema;
      const value = fc.oneof(
        { weight: 4, arbitrary: validValue(items, name, operation, options).map(asQueryText) },
        { weight: 2, arbitrary: invalidValue(items).map(asQueryText) },
      );
      parts.push(value.map((text): QueryPart => [name, text]));
    } else if (schema.type === 'array') {
      // sortby: `<field>:<direction>`, from real fields and odd ones.
      const sortValue = fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...options.sortFields(operation)) },
        { weight: 1, arbitrary: SQL_AND_MARKUP },
        { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
      );
      const value = fc
        .tuple(sortValue, fc.constantFrom(...ODD_SORT_DIRECTIONS))
        .map(([field, direction]) => (direction === '' ? field : `${field}:${direction}`));
      parts.push(value.map((text): QueryPart => [name, text]));
    } else {
      const value = fc.oneof(
        { weight: 4, arbitrary: validValue(schema, name, operation, options).map(asQueryText) },
        { weight: 2, arbitrary: invalidValue(schema).map(asQueryText) },
      );
      parts.push(value.map((text): QueryPart => [name, text]));
    }
  }
  const unknown = fc
    .tuple(fc.constantFrom(...UNKNOWN_QUERY_NAMES), fc.string({ maxLength: 8 }))
    .map((part): QueryPart => part);
  const known = parts.length > 0 ? fc.oneof(...parts) : unknown;
  return fc
    .tuple(
      fc.array(known, { maxLength: 4 }),
      fc.option(unknown, { freq: 8 }),
      // Now and then one parameter twice (only sortby and tags may repeat).
      fc.boolean(),
    )
    .map(([chosen, extra, repeat]) => {
      const query = [...chosen, ...(extra ? [extra] : [])];
      const first = query[0];
      if (repeat && first) query.push([first[0], first[1]]);
      return query;
    });
}

/** Query strings no well-formed encoder writes. */
const RAW_QUERIES = [
  '%',
  '%zz=1',
  'hostname=%ED%A0%80',
  // Percent-encoded bytes that are not UTF-8: 400, never a search for U+FFFD.
  'hostname=%E0%A4',
  'q=caf%E9',
  'hostname=%00',
  'name=%C0%AF',
  '&&&==',
  'page=1&page=2',
  'limit=1e3',
  'limit=0x10',
  `hostname=${'a'.repeat(20_000)}`,
  'sortby=hostname:asc&sortby=hostname:asc&sortby=ip:desc',
  `sortby=${Array.from({ length: 11 }, () => 'created_at:asc').join('&sortby=')}`,
];

export type GeneratedBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; contentType: string; text: string | Buffer };

/** Bodies no JSON encoder writes, and bodies of other types. */
const RAW_BODIES: GeneratedBody[] = [
  { kind: 'raw', contentType: 'application/json', text: '{"hostname": ' },
  { kind: 'raw', contentType: 'application/json', text: '' },
  { kind: 'raw', contentType: 'application/json', text: 'null' },
  { kind: 'raw', contentType: 'application/json', text: '{"a":1,"a":2}' },
  { kind: 'raw', contentType: 'application/json', text: '{"__proto__": {"admin": true}}' },
  {
    kind: 'raw',
    contentType: 'application/json',
    text: `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
  },
  {
    kind: 'raw',
    contentType: 'application/json',
    text: `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`,
  },
  { kind: 'raw', contentType: 'application/json', text: '\ufeff{}' },
  { kind: 'raw', contentType: 'application/json; charset=latin1', text: '{}' },
  // Bytes that are not UTF-8 (a Latin-1 é, an encoded surrogate): 400, never stored as U+FFFD.
  {
    kind: 'raw',
    contentType: 'application/json',
    text: Buffer.from('{"name":"caf\xe9"}', 'latin1'),
  },
  { kind: 'raw', contentType: 'text/csv', text: Buffer.from('name\nx\xed\xa0\x80\n', 'latin1') },
  { kind: 'raw', contentType: 'text/csv; charset=koi8-r', text: 'name\nx\n' },
  { kind: 'raw', contentType: 'text/plain', text: 'hello' },
  { kind: 'raw', contentType: 'application/xml', text: '<a/>' },
  { kind: 'raw', contentType: 'application/x-www-form-urlencoded', text: 'a=1&a=2&b=%ZZ' },
];

export interface GeneratedRequest {
  operation: Operation;
  /** What the generator aimed at; the service decides what it really is. */
  intent: 'valid' | 'invalid';
  path: Record<string, unknown>;
  query: QueryPart[] | { raw: string };
  body: GeneratedBody | undefined;
  /** Values of the operation's documented headers (entity tags and hostile text). */
  headers: Record<string, string>;
}

/**
 * Entity-tag headers (If-Match, If-None-Match) and hostile text where one goes: tags that never
 * match, weak ones, `*`, lists with empty elements, unbalanced quotes, commas inside quotes,
 * bytes beyond ASCII, more tags than allowed, longer than documented. Only characters an HTTP
 * header may carry (the client refuses the others before sending).
 */
export const HOSTILE_TAG_HEADERS = [
  '*',
  ' * ',
  '"1"',
  'W/"1"',
  '"1", W/"2", "3"',
  '"0"',
  '"-1"',
  '"99999999999999999999999999"',
  '""',
  '"',
  '"unterminated',
  'unquoted',
  'W/',
  'W/unquoted',
  ',,,',
  ', "1" ,',
  '"a" "b"',
  '"a,b"',
  '*, "1"',
  '"\' OR 1=1 --"',
  '"1; SELECT pg_sleep(10)"',
  '"\u00e9\u00ff"',
  '\t"1"\t',
  '"1",'.repeat(100),
  `"${'x'.repeat(5_000)}"`,
];

/** A header value: mostly a tag-like hostile one, sometimes any printable text. */
const headerValue = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_TAG_HEADERS) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
      maxLength: 60,
    }),
  },
);

function headersArbitrary(operation: Operation): fc.Arbitrary<Record<string, string>> {
  const record: Record<string, fc.Arbitrary<string>> = {};
  for (const parameter of operation.headerParams) record[parameter.name] = headerValue;
  return fc
    .record(record, { requiredKeys: [] })
    .map(
      (headers) =>
        Object.fromEntries(
          Object.entries(headers).filter(([, value]) => value !== undefined),
        ) as Record<string, string>,
    );
}

/** Path parameters: mostly known ids, sometimes anything at all. */
function pathArbitrary(
  operation: Operation,
  options: GenerationOptions,
  intent: 'valid' | 'invalid',
): fc.Arbitrary<Record<string, unknown>> {
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const parameter of operation.pathParams) {
    const valid = validValue(parameter.schema, parameter.name, operation, options);
    record[parameter.name] =
      intent === 'valid'
        ? valid
        : fc.oneof(
            valid,
            invalidValue(parameter.schema).map((value) =>
              typeof value === 'string' ? value : JSON.stringify(value),
            ),
          );
  }
  return fc.record(record);
}

/** A request to `operation`: valid, or broken in one or several places. */
export function requestArbitrary(
  operation: Operation,
  options: GenerationOptions,
): fc.Arbitrary<GeneratedRequest> {
  // Each intent's arbitrary is built once: fast-check arbitraries are immutable, and building
  // them (schemas walked, regular expressions parsed) in a `chain` for every case took two
  // thirds of the fuzzing's time.
  return fc.oneof(
    { weight: 2, arbitrary: requestOfIntent(operation, options, 'valid') },
    { weight: 1, arbitrary: requestOfIntent(operation, options, 'invalid') },
  );
}

function requestOfIntent(
  operation: Operation,
  options: GenerationOptions,
  chosen: 'valid' | 'invalid',
): fc.Arbitrary<GeneratedRequest> {
  const body: fc.Arbitrary<GeneratedBody | undefined> = operation.body
    ? chosen === 'valid'
      ? validValue(operation.body, 'body', operation, options).map(
          (value): GeneratedBody => ({ kind: 'json', value }),
        )
      : fc.oneof(
          {
            weight: 6,
            arbitrary: invalidBody(operation.body, operation, options).map(
              (value): GeneratedBody => ({ kind: 'json', value }),
            ),
          },
          { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES) },
        )
    : chosen === 'valid'
      ? fc.constant(undefined)
      : fc
          .option(
            fc.jsonValue({ maxDepth: 2 }).map((value): GeneratedBody => ({ kind: 'json', value })),
            { freq: 4 },
          )
          .map((value) => value ?? undefined);
  const query: fc.Arbitrary<QueryPart[] | { raw: string }> =
    chosen === 'valid'
      ? validQuery(operation, options)
      : fc.oneof(
          { weight: 6, arbitrary: queryArbitrary(operation, options) },
          { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERIES).map((raw) => ({ raw })) },
        );
  return fc
    .record({
      path: pathArbitrary(operation, options, chosen),
      query,
      body,
      headers: headersArbitrary(operation),
    })
    .map((parts) => ({
      operation,
      intent: chosen,
      ...parts,
      // Counterexamples name the operation, not its whole schema.
      [fc.toStringMethod]: () =>
        `${operation.key} ${chosen} ${fc.stringify({ path: parts.path, query: parts.query, body: parts.body, headers: parts.headers })}`,
    }));
}

/** Up to two of the operation's scalar query parameters, each with a valid value. */
function validQuery(operation: Operation, options: GenerationOptions): fc.Arbitrary<QueryPart[]> {
  const scalars = operation.queryParams.filter((parameter) => parameter.schema.type !== 'array');
  if (scalars.length === 0) return fc.constant([]);
  // The value arbitraries made once, as above; the chain only picks among them.
  const parts = scalars.map((parameter) =>
    validValue(parameter.schema, parameter.name, operation, options).map(
      (value): QueryPart => [parameter.name, asQueryText(value)],
    ),
  );
  return fc.subarray(parts, { maxLength: 2 }).chain((chosen) => fc.tuple(...chosen));
}

/** UTF-8 percent-encoding that cannot throw (lone surrogates become U+FFFD, as a browser does). */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(text)) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~:]/.test(char)
      ? char
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The URL of a resolved request: path template filled, query written out. */
export function urlOf(
  operation: Operation,
  path: Record<string, unknown>,
  query: QueryPart[] | { raw: string },
): string {
  // An empty parameter would address another route (`/devices/` is the list): a space instead.
  const filled = operation.path.replace(
    /\{([^}]+)\}/g,
    (_, name: string) => percentEncode(String(path[name])) || '%20',
  );
  const search =
    'raw' in query
      ? query.raw
      : query
          .map(([name, value]) => `${percentEncode(name)}=${percentEncode(String(value))}`)
          .join('&');
  return search ? `${filled}?${search}` : filled;
}

/** Checks answers against the document: a 2xx against its operation's schema, errors against Error. */
export class ResponseChecker {
  readonly #ajv: Ajv;
  readonly #compiled = new Map<JsonSchema, ValidateFunction>();

  constructor() {
    this.#ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
    addFormats.default(this.#ajv);
    this.#ajv.addFormat('ip', (value: string) => isIP(value) !== 0);
  }

  /** Problems with this answer, none when it is as documented. */
  problems(
    operation: Operation,
    status: number,
    contentType: string | undefined,
    text: string,
  ): string[] {
    if (status >= 500) return [`${status}: a server error`];
    // Not Modified (If-None-Match): documented, and without a body.
    if (status === 304) {
      if (!('304' in operation.responses)) return [`304 is not documented for ${operation.key}`];
      return text === '' ? [] : ['304 should have no body'];
    }
    const documented =
      operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`];
    if (status >= 200 && status < 300) {
      if (!(String(status) in operation.responses)) {
        return [`${status} is not a documented success of ${operation.key}`];
      }
      if (documented === 'text') {
        return contentType?.startsWith('text/') ? [] : [`${status} should be text`];
      }
      if (documented === undefined) return text === '' ? [] : [`${status} should have no body`];
      // A list's CSV export (its `format` parameter): text a CSV parser reads.
      if (
        contentType?.startsWith('text/csv') &&
        operation.queryParams.some((parameter) => parameter.name === 'format')
      ) {
        try {
          parseCsv(text);
          return [];
        } catch (error) {
          return [`${status}: not CSV: ${(error as Error).message}`];
        }
      }
      return this.#validate(documented, text, `${status}`);
    }
    const errorShape = this.#validate(
      {
        type: 'object',
        required: ['status', 'message'],
        properties: { status: { enum: ['error'] }, message: { type: 'string' } },
      },
      text,
      `${status}`,
    );
    if (errorShape.length > 0) return errorShape;
    return documented && documented !== 'text' ? this.#validate(documented, text, `${status}`) : [];
  }

  #validate(schema: JsonSchema, text: string, label: string): string[] {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [`${label}: not JSON: ${text.slice(0, 200)}`];
    }
    let validate = this.#compiled.get(schema);
    if (!validate) {
      validate = this.#ajv.compile(schema);
      this.#compiled.set(schema, validate);
    }
    if (validate(body)) return [];
    return [`${label}: ${this.#ajv.errorsText(validate.errors)} in ${text.slice(0, 300)}`];
  }
}
