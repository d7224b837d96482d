import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdsRefusedText } from '../src/protections/content-check.js';
import { startTestApp, type TestContext } from '../test/helpers.js';
import { report, runSeed, scale } from './support/model-figures.js';
import {
  type IdRef,
  type JsonSchema,
  type Known,
  LOOK_ALIKE_IDENTIFIERS,
  type OpenApiDocument,
  type Operation,
  operationsOf,
  ResponseChecker,
  resolveIds,
  urlOf,
  validValue,
} from './support/openapi-arbitraries.js';

/**
 * The OpenAPI document against the server, the checks an outside tool (Schemathesis) makes, for
 * every operation of the document:
 * - positive data acceptance: input the document's schemas accept is accepted (2xx), unless a
 *   rule the document states refuses it (a taken unique value, a record that does not exist, the
 *   outbound URL or markup policy…; the list below, each a documented refusal);
 * - negative data rejection: a query value or body field the schemas refuse is refused with 400;
 * - a method the path does not document is 405 with `Allow` naming the documented ones;
 * - every answer has a documented status and matches its documented schema (Ajv).
 */
const VALID_CASES_PER_OPERATION = scale(6, 60);
const seed = runSeed();

let ctx: TestContext;
let operations: Operation[];
const checker = new ResponseChecker();
/** Ids of records by resource (the first path segment), for path and reference fields. */
const ids: Record<string, string[]> = {};

beforeAll(async () => {
  ctx = await startTestApp();
  const document = await ctx.app.inject({ method: 'GET', url: '/openapi.json' });
  operations = operationsOf(document.json<OpenApiDocument>());
  // A few records of every kind, through the API, for path ids and references to find.
  const site = await post('/locations', { name: 'conformance-site' });
  const device = await post('/devices', { hostname: 'conformance-1', ip: '192.0.2.1' });
  const a = await post('/interfaces', { device_id: device, name: 'eth0' });
  const b = await post('/interfaces', { device_id: device, name: 'eth1' });
  await post('/links', { a_interface_id: a, b_interface_id: b });
  await post('/vlans', { vlan_id: 3999, name: 'conformance' });
  await post('/webhooks', { name: 'conformance', url: 'https://93.184.215.14/hook' });
  await post('/events', { severity: 'info', type: 'conformance', message: 'x', device_id: device });
  ids.locations?.push(site);
  for (const resource of ['users', 'api-tokens', 'audit-logs']) {
    const list = await ctx.as('admin', { method: 'GET', url: `/${resource}?limit=100` });
    ids[resource] = list.json<{ data: Array<{ id: string }> }>().data.map((row) => row.id);
  }
  // The accounts the test signs in with stay out of reach of its writes.
  ids.users = [];
});
afterAll(() => ctx?.close());

async function post(path: string, payload: object): Promise<string> {
  const response = await ctx.as('admin', { method: 'POST', url: path, payload });
  if (response.statusCode !== 201) throw new Error(`POST ${path}: ${response.body}`);
  const id = response.json<{ id: string }>().id;
  remember(path, id);
  return id;
}

const resourceOfPath = (path: string) => path.split('/').filter(Boolean)[0] ?? '';
function remember(path: string, id: string) {
  const resource = resourceOfPath(path);
  ids[resource] = [...(ids[resource] ?? []), id];
}

const REFERENCES: Record<string, string> = {
  location_id: 'locations',
  device_id: 'devices',
  a_interface_id: 'interfaces',
  b_interface_id: 'interfaces',
  user_id: 'users',
};
const generation = {
  resourceOf: (field: string, operation: Operation) =>
    field === 'id' ? resourceOfPath(operation.path) : REFERENCES[field],
  sortFields: () => ['created_at'],
};

/** A generated value with its ids and known values filled in. */
const resolve = (value: unknown) =>
  resolveIds(value, {
    id: (ref: IdRef) => {
      const pool = ids[ref.resource] ?? [];
      return pool[ref.pick % Math.max(pool.length, 1)] ?? crypto.randomUUID();
    },
    known: (_: Known) => undefined,
  });

/**
 * Refusals of schema-valid input that the document states (each operation's description and
 * the API description): the rules a schema cannot express.
 */
const DOCUMENTED_REFUSALS: Array<{ status: number; message: RegExp; rule: string }> = [
  { status: 404, message: /not found/, rule: 'the record addressed does not exist' },
  { status: 400, message: /not found|does not exist/, rule: 'a reference to no record' },
  { status: 409, message: /already exists|admin/, rule: 'a unique value taken; the last admin' },
  { status: 400, message: /contains HTML|script content/, rule: 'the markup policy' },
  { status: 400, message: /not allowed|private|loopback|resolve|refused/i, rule: 'SSRF policy' },
  { status: 400, message: /cannot be combined/, rule: 'tags with add_tags/remove_tags' },
  { status: 400, message: /cursor|with page|Not with/i, rule: 'cursor and page exclude' },
  { status: 400, message: /Unknown field|fields/, rule: '`fields` names listed fields' },
  { status: 400, message: /Invalid value in query parameter/, rule: '__in items typed' },
  { status: 400, message: /Duplicate id/, rule: 'an id once per batch' },
  { status: 400, message: /two different interfaces/, rule: 'a link joins two interfaces' },
  {
    status: 400,
    message: /is not speed .*give one of them, or both alike/,
    rule: "an interface's speed and speed_mbps, one value in two forms, agree",
  },
  { status: 400, message: /from.*to|before/, rule: 'a time range runs forward' },
  { status: 400, message: /Password|password/, rule: 'password rules' },
  { status: 400, message: /must be in the future/, rule: 'a token expires in the future' },
  { status: 401, message: /./, rule: 'credentials a login or reset must match' },
  { status: 403, message: /./, rule: 'what even an admin may not change (own role)' },
  { status: 412, message: /Precondition/, rule: 'a batch item etag' },
  // Each `__in` may be 4,096 characters; two at their longest pass the request target's limit
  // (README, errors: 414), which no one parameter's schema can say.
  { status: 414, message: /URI too long/, rule: 'a request target of at most 8,190 characters' },
];

/** Operations whose valid input needs secrets the document cannot give (credentials, codes). */
const CREDENTIALED = /^\/users\/(login|logout|forgot-password|reset-password)|\/password$/;

describe('the OpenAPI document against the server', () => {
  it('accepts schema-valid input of every operation, refusing only by a documented rule', async () => {
    const outcomes: Record<string, number> = {};
    const problems: string[] = [];
    // The generator aims at the schemas; what it makes is checked against them (unique items,
    // lengths with patterns), so that only input the document accepts is sent.
    const documentAjv = new Ajv({ strict: false });
    addFormats.default(documentAjv);
    for (const operation of operations) {
      if (CREDENTIALED.test(operation.path)) continue;
      const queryable = operation.queryParams.filter(
        (parameter) => parameter.schema.type !== 'array' && parameter.name !== 'cursor',
      );
      const request = fc.record({
        path: fc.record(
          Object.fromEntries(
            operation.pathParams.map((parameter) => [
              parameter.name,
              validValue(parameter.schema, parameter.name, operation, generation),
            ]),
          ),
        ),
        query: fc.subarray(queryable, { maxLength: Math.min(2, queryable.length) }),
        body: operation.body
          ? validValue(operation.body, 'body', operation, generation)
          : fc.constant(undefined),
      });
      const bodyIsValid = operation.body ? compiled(documentAjv, operation.body) : () => true;
      const samples = fc
        .sample(request, { seed, numRuns: VALID_CASES_PER_OPERATION * 3 })
        .filter((sample) => bodyIsValid(resolve(sample.body)))
        .slice(0, VALID_CASES_PER_OPERATION);
      for (const [index, sample] of samples.entries()) {
        const query = sample.query.map((parameter): [string, unknown] => [
          parameter.name,
          queryText(
            resolve(
              fc.sample(validValue(parameter.schema, parameter.name, operation, generation), {
                seed: seed + index,
                numRuns: 1,
              })[0],
            ),
          ),
        ]);
        const inject: InjectOptions = {
          method: operation.method as InjectOptions['method'],
          url: urlOf(operation, resolve(sample.path) as Record<string, unknown>, query),
        };
        if (sample.body !== undefined) inject.payload = resolve(sample.body) as object;
        const response = await ctx.as('admin', inject);
        const status = response.statusCode;
        const where = `${inject.method} ${inject.url} ${JSON.stringify(inject.payload ?? '').slice(0, 300)} -> ${status} ${response.body.slice(0, 200)}`;
        problems.push(
          ...checker
            .problems(operation, status, response.headers['content-type'] as string, response.body)
            .map((problem) => `${where}: ${problem}`),
        );
        if (status === 201 && response.body.startsWith('{')) {
          const id = response.json<{ id?: unknown }>().id;
          if (typeof id === 'string' && !operation.path.startsWith('/users')) {
            remember(operation.path, id);
          }
        }
        const accepted = (status >= 200 && status < 300) || status === 304;
        const message = accepted ? '' : String(response.json<{ message?: unknown }>().message);
        const rule = DOCUMENTED_REFUSALS.find(
          (refusal) => refusal.status === status && refusal.message.test(message),
        );
        if (!accepted && !rule) problems.push(`${where}: refused by no documented rule`);
        const outcome = accepted ? 'accepted' : `refused: ${rule?.rule ?? status}`;
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      }
    }
    report('inventory-conformance-positive', { seed, outcomes });
    expect(problems).toEqual([]);
    expect(outcomes.accepted).toBeGreaterThan(operations.length);
  });

  it('refuses with 400 every query value and body field its schema refuses', async () => {
    const query = queryValidator();
    const body = new Ajv({ strict: false, allErrors: false });
    addFormats.default(body);
    const problems: string[] = [];
    let checked = 0;
    let invisibleNames = 0;
    for (const operation of operations) {
      const path = Object.fromEntries(
        operation.pathParams.map((parameter) => [
          parameter.name,
          ids[resourceOfPath(operation.path)]?.[0] ?? crypto.randomUUID(),
        ]),
      );
      const attempts: Array<{ what: string; inject: InjectOptions; refusal?: RegExp }> = [];
      for (const parameter of operation.queryParams) {
        for (const value of wrongQueryValues(parameter.schema)) {
          if (query(parameter.schema, value)) continue;
          attempts.push({
            what: `query ${parameter.name}=${value.slice(0, 40)}`,
            inject: {
              method: operation.method as InjectOptions['method'],
              url: urlOf(operation, path, [[parameter.name, value]]),
            },
          });
        }
      }
      // A route that reads a query refuses what it does not document (additionalProperties).
      if (operation.queryParams.length > 0)
        attempts.push({
          what: 'an undocumented query parameter',
          inject: {
            method: operation.method as InjectOptions['method'],
            url: urlOf(operation, path, [['no_such_parameter', '1']]),
          },
        });
      if (operation.body) {
        const validate = compiled(body, operation.body);
        for (const payload of wrongBodies(operation.body)) {
          if (validate(payload)) continue;
          attempts.push({
            what: `body ${JSON.stringify(payload).slice(0, 80)}`,
            inject: {
              method: operation.method as InjectOptions['method'],
              url: urlOf(operation, path, []),
              payload: JSON.stringify(payload),
              headers: { 'content-type': 'application/json' },
            },
          });
        }
        // A valid record but for one name holding an invisible character or a look-alike space:
        // the pattern the document gives refuses it, and the answer names the field and the
        // code point. And one whose name composing (NFC) takes past its limit, which the
        // document's maxLength cannot say: refused in words, naming the field.
        for (const { field, payload, grows } of invisibleNameBodies(operation, validate)) {
          invisibleNames++;
          attempts.push({
            what: `body ${field} ${JSON.stringify(payload[field]).slice(0, 80)}`,
            inject: {
              method: operation.method as InjectOptions['method'],
              url: urlOf(operation, path, []),
              payload: JSON.stringify(payload),
              headers: { 'content-type': 'application/json' },
            },
            refusal: grows
              ? new RegExp(
                  `^${field}: must not have more than \\d+ characters in Unicode's composed form \\(NFC\\), which this value has once composed$`,
                )
              : new RegExp(
                  `^body/${field} must not contain (invisible formatting characters|spaces other than U\\+0020) \\(U\\+[0-9A-F]{4,5}(, U\\+[0-9A-F]{4,5})*\\)$`,
                ),
          });
        }
      }
      for (const { what, inject, refusal } of attempts) {
        checked++;
        const response = await ctx.as('admin', inject);
        if (response.statusCode !== 400) {
          problems.push(`${operation.key} ${what}: ${response.statusCode} ${response.body}`);
        } else if (refusal && !refusal.test(String(response.json().message))) {
          problems.push(`${operation.key} ${what}: not in words: ${response.body}`);
        }
        problems.push(
          ...checker
            .problems(
              operation,
              response.statusCode,
              response.headers['content-type'] as string,
              response.body,
            )
            .map((problem) => `${operation.key} ${what}: ${problem}`),
        );
      }
    }
    report('inventory-conformance-negative', { seed, checked, invisibleNames });
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(operations.length * 3);
    // Every create and change of a record with a name: hostnames, the names of locations,
    // interfaces, VLANs, webhooks and API tokens, serial numbers.
    expect(invisibleNames).toBeGreaterThanOrEqual(LOOK_ALIKE_IDENTIFIERS.length * 7);
  });

  it('answers a method a path does not document with 405 and Allow naming those it does', async () => {
    const byPath = new Map<string, Set<string>>();
    for (const operation of operations) {
      byPath.set(operation.path, (byPath.get(operation.path) ?? new Set()).add(operation.method));
    }
    const templates = [...byPath.keys()].map((path) => ({
      path,
      regex: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
    const problems: string[] = [];
    for (const [path, documented] of byPath) {
      const url = path.replace(/\{[^}]+\}/g, crypto.randomUUID());
      // `/users/login` is also `/users/{id}` with an id that is no UUID (400 there): only a
      // path no other template matches has exactly the methods its own template documents.
      if (templates.some((other) => other.path !== path && other.regex.test(url))) continue;
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'QUERY', 'PROPFIND']) {
        if (documented.has(method)) continue;
        const response = await ctx.as('admin', {
          method: method as InjectOptions['method'],
          url,
        });
        const allow = String(response.headers.allow ?? '')
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== 'HEAD' && name !== 'OPTIONS');
        if (response.statusCode !== 405 || allow.sort().join() !== [...documented].sort().join()) {
          problems.push(`${method} ${path}: ${response.statusCode}, Allow: ${allow.join(', ')}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

/** A value as a query string carries it. */
function queryText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Whether a query text matches a parameter's schema as the server reads it (coerced). */
function queryValidator() {
  const ajv = new Ajv({ strict: false, coerceTypes: 'array' });
  addFormats.default(ajv);
  return (schema: JsonSchema, text: string) => {
    const holder = { value: text };
    return compiled(ajv, {
      type: 'object',
      properties: { value: schema },
    } as JsonSchema)(holder);
  };
}

const compiledSchemas = new WeakMap<Ajv, Map<JsonSchema, ValidateFunction>>();
function compiled(ajv: Ajv, schema: JsonSchema): ValidateFunction {
  const cache = compiledSchemas.get(ajv) ?? new Map<JsonSchema, ValidateFunction>();
  compiledSchemas.set(ajv, cache);
  let validate = cache.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    cache.set(schema, validate);
  }
  return validate;
}

/**
 * Query values that break a schema (each checked against it before sending): empty, a wrong
 * type, one past a bound. Three at most per parameter: a list has ~150.
 */
function wrongQueryValues(schema: JsonSchema): string[] {
  const item = schema.type === 'array' && schema.items ? schema.items : schema;
  const pastBound =
    item.maximum !== undefined
      ? String(item.maximum + 1)
      : item.minimum !== undefined
        ? String(item.minimum - 1)
        : 'x'.repeat((item.maxLength ?? 300) + 1);
  return ['', '1.5', pastBound];
}

/**
 * For each string field of a single-record body that takes visible text of any script but
 * refuses a hostile invisible value (LOOK_ALIKE_IDENTIFIERS): a body valid as the document says
 * but for that field. A schema-valid body is generated first, so the refusal can only be the
 * name's.
 */
function invisibleNameBodies(
  operation: Operation,
  validate: ValidateFunction,
): Array<{ field: string; payload: Record<string, unknown>; grows?: boolean }> {
  const record =
    operation.body?.anyOf?.find((branch) => branch.type === 'object') ?? operation.body;
  if (record?.type !== 'object') return [];
  const [valid] = fc
    .sample(validValue(record, 'body', operation, generation), { seed, numRuns: 50 })
    .map((sample) => resolve(sample) as Record<string, unknown>)
    // The server refuses markup in any field before it reads the schema's patterns: a record
    // whose other fields hold some would be refused for them, not for the name.
    .filter((sample) => validate(sample) && !holdsRefusedText(sample));
  if (!valid) return [];
  const bodies: Array<{ field: string; payload: Record<string, unknown>; grows?: boolean }> = [];
  for (const [field, property] of Object.entries(record.properties ?? {})) {
    const text = [property, ...(property.anyOf ?? [])].find((branch) => branch.type === 'string');
    if (!text?.pattern || text.format) continue;
    if (!validate({ ...valid, [field]: 'Zürich 東京-🚀 café' })) continue;
    let named = false;
    for (const name of LOOK_ALIKE_IDENTIFIERS) {
      const payload = { ...valid, [field]: name };
      if (!validate(payload)) {
        named = true;
        bodies.push({ field, payload });
      }
    }
    // A name (it refuses look-alikes) is composed when written. U+0958 is excluded from
    // composition: NFC writes each as two characters.
    if (named && typeof text.maxLength === 'number') {
      const payload = { ...valid, [field]: '\u0958'.repeat(text.maxLength) };
      if (validate(payload)) bodies.push({ field, payload, grows: true });
    }
  }
  return bodies;
}

/** Bodies that break a body schema: a wrong type for each field, an unknown field, no object. */
function wrongBodies(schema: JsonSchema): unknown[] {
  const record = schema.anyOf?.find((branch) => branch.type === 'object') ?? schema;
  const bodies: unknown[] = ['a string', 42];
  if (record.type === 'array') bodies.push([], [{ no_such_field: 1 }], ['x', 'x']);
  if (record.type !== 'object') return bodies;
  bodies.push({ no_such_field: 1 });
  for (const [field, property] of Object.entries(record.properties ?? {})) {
    const wrong = property.type === 'string' || property.anyOf ? { nested: true } : 'text';
    bodies.push({ [field]: wrong }, { [field]: Array(3).fill(wrong) });
  }
  return bodies;
}
