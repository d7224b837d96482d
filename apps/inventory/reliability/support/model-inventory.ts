import type { JsonSchema, Operation } from './openapi-arbitraries.js';

/**
 * What the data set must hold, according to the answers the service gave: the fuzzer applies
 * every acknowledged (2xx) create, replace, update and delete to this model, and nothing else,
 * then compares it with what the API reads back. A refused request that still changed a row, an
 * acknowledged one that did not, a value stored other than as sent, a cascade gone wrong: each
 * shows up as a difference. The rules come from the spec and the README (defaults, the derived
 * speed_mbps, what a delete does to the records that point to it), not from the code.
 */

type Row = Record<string, unknown>;

interface ResourceRules {
  /** Values a create or full replace stores for an absent field (README, Resources). */
  defaults?: Row;
  /** PUT changes only the fields sent (users: an account is never replaced). */
  putIsPartial?: boolean;
  /** A field the service fills in from another (interfaces: speed_mbps from speed). */
  derive?: (values: Row) => Row;
  /** Fields never written through the API, so not compared (none today). */
  ignore?: string[];
}

/** `2.5Gbps` in Mbps, from its decimal digits (a binary float would round 2.0005 × 1000 down). */
function megabitsOf(speed: string): number {
  const match = /^(\d+)(?:\.(\d+))?Gbps$/.exec(speed);
  if (!match) return Number.NaN;
  const fraction = (match[2] ?? '').padEnd(4, '0');
  const roundUp = Number(fraction[3]) >= 5 ? 1 : 0;
  return Number(match[1]) * 1000 + Number(fraction.slice(0, 3)) + roundUp;
}

/** README, Queries: every tagged record has a tag list, empty unless given. */
const TAGGED = { tags: [] };

/**
 * README, Validation: the fields that name a record are stored in Unicode's composed form (NFC),
 * and a filter finds a name given in either form.
 */
const NAMES: Record<string, readonly string[]> = {
  devices: ['hostname', 'serial_number'],
  locations: ['name'],
  interfaces: ['name'],
  vlans: ['name'],
  webhooks: ['name'],
  'api-tokens': ['name'],
};
const isName = (resource: string, field: string) => NAMES[resource]?.includes(field) === true;

const RULES: Record<string, ResourceRules> = {
  locations: { defaults: TAGGED },
  devices: { defaults: { status: 'active', ...TAGGED } },
  interfaces: {
    defaults: TAGGED,
    // README, Resources: speed and speed_mbps are one value in two forms, "a write that gives
    // either sets both" (more than three decimals round to the Mbps, half up; null for the one
    // given clears both; a null beside a value is filled from it); "mac_address (… stored in
    // lower case)".
    derive: (sent) => {
      const values =
        typeof sent.mac_address === 'string'
          ? { ...sent, mac_address: sent.mac_address.toLowerCase() }
          : sent;
      if (values.speed === undefined && values.speed_mbps === undefined) return values;
      if (typeof values.speed === 'string') {
        return { ...values, speed_mbps: megabitsOf(values.speed) };
      }
      if (typeof values.speed_mbps === 'number') {
        return { ...values, speed: `${values.speed_mbps / 1000}Gbps` };
      }
      return { ...values, speed: null, speed_mbps: null };
    },
  },
  vlans: { defaults: TAGGED },
  links: { defaults: { status: 'up', ...TAGGED } },
  events: {},
  users: { defaults: { role: 'viewer', inactive_status: false }, putIsPartial: true },
  // The service fills these in (README, API tokens); the rest is as sent.
  'api-tokens': { ignore: ['token_prefix', 'created_by', 'last_used_at'] },
};

/** Deleting a record of the key: [resource, field, effect] for records pointing to it. */
const ON_DELETE: Record<string, Array<[string, string, 'set-null' | 'cascade']>> = {
  locations: [['devices', 'location_id', 'set-null']],
  devices: [
    ['interfaces', 'device_id', 'cascade'],
    ['events', 'device_id', 'set-null'],
  ],
  interfaces: [
    ['links', 'a_interface_id', 'cascade'],
    ['links', 'b_interface_id', 'cascade'],
  ],
};

export const MODELLED_RESOURCES = Object.keys(RULES);

/** `GET /{parent}/{id}/{path}`: the records of `resource` whose `foreignKey` is the parent. */
const CHILD_LISTS: Record<string, { resource: string; foreignKey: string; count?: boolean }> = {
  'devices/interfaces': { resource: 'interfaces', foreignKey: 'device_id' },
  'devices/interfacecount': { resource: 'interfaces', foreignKey: 'device_id', count: true },
  'locations/devices': { resource: 'devices', foreignKey: 'location_id' },
  'locations/devicescount': { resource: 'devices', foreignKey: 'location_id', count: true },
};

interface FieldTypes {
  fields: string[];
  formats: Record<string, string | undefined>;
  /** JSON type of a field's non-null value: `string`, `integer`, `boolean`, ... */
  kinds: Record<string, string | undefined>;
}

interface Stored {
  values: Row;
  created_at: string;
}

const formatOf = (schema: JsonSchema | undefined): string | undefined =>
  schema?.format ?? schema?.anyOf?.map(formatOf).find((format) => format !== undefined);

const kindOf = (schema: JsonSchema | undefined): string | undefined =>
  schema?.type !== undefined && schema.type !== 'null'
    ? schema.type
    : schema?.anyOf?.map(kindOf).find((kind) => kind !== undefined);

/** `/devices/{id}` -> ['devices', '{id}']. */
const segments = (path: string) => path.split('/').filter(Boolean);

export class InventoryModel {
  readonly #types = new Map<string, FieldTypes>();
  readonly #records = new Map<string, Map<string, Stored>>();
  readonly #gone = new Map<string, string[]>();
  /** Accounts the test signs in with: never offered to the fuzzer's mutations. */
  readonly #protected = new Set<string>();
  /** Acknowledged writes applied, by kind. */
  readonly applied: Record<string, number> = {};

  /** Field names and formats from each resource's single-record read in the document. */
  constructor(operations: readonly Operation[]) {
    for (const resource of MODELLED_RESOURCES) {
      const read = operations.find(
        (operation) => operation.method === 'GET' && operation.path === `/${resource}/{id}`,
      );
      const schema = read?.responses['200'];
      if (!schema || schema === 'text' || !schema.properties) {
        throw new Error(`No record schema for ${resource} in the OpenAPI document`);
      }
      const fields = Object.keys(schema.properties).filter(
        (name) => !['id', 'created_at', 'updated_at'].includes(name),
      );
      const formats = Object.fromEntries(
        fields.map((name) => [name, formatOf(schema.properties?.[name])]),
      );
      const kinds = Object.fromEntries(
        fields.map((name) => [name, kindOf(schema.properties?.[name])]),
      );
      this.#types.set(resource, { fields, formats, kinds });
      this.#records.set(resource, new Map());
      this.#gone.set(resource, []);
    }
  }

  /** Starts from records that exist already (the seeded accounts), kept out of the mutations. */
  adopt(resource: string, row: Row, options: { protect?: boolean } = {}) {
    const id = String(row.id);
    this.#table(resource).set(id, {
      values: this.#project(resource, row),
      created_at: String(row.created_at),
    });
    if (options.protect) this.#protected.add(id);
  }

  liveIds(resource: string): string[] {
    return [...(this.#records.get(resource)?.keys() ?? [])].filter(
      (id) => !this.#protected.has(id),
    );
  }

  goneIds(resource: string): string[] {
    return this.#gone.get(resource) ?? [];
  }

  /** A field of a record as last acknowledged. */
  valueOf(resource: string, id: string, field: string): unknown {
    return this.#records.get(resource)?.get(id)?.values[field];
  }

  count(resource: string): number {
    return this.#records.get(resource)?.size ?? 0;
  }

  /**
   * Applies an acknowledged answer of `operation` to the model. Returns differences between what
   * the answer says was stored and what the request asked for.
   */
  apply(operation: Operation, path: Row, body: unknown, status: number, answer: unknown): string[] {
    if (status < 200 || status >= 300) return [];
    const [resource, second, ...rest] = segments(operation.path);
    // Writes to `/{resource}` and `/{resource}/{id}`; a password change or a login changes
    // nothing the model holds.
    if (!resource || !this.#types.has(resource) || rest.length > 0) return [];
    if (operation.method === 'GET' || (second !== undefined && second !== '{id}')) return [];
    const id = typeof path.id === 'string' ? path.id.toLowerCase() : undefined;
    const rules = RULES[resource] ?? {};
    const kind = `${operation.method} ${second ? '/{id}' : '/'}`;
    this.applied[kind] = (this.applied[kind] ?? 0) + 1;
    switch (`${operation.method} ${second ? 'one' : 'all'}`) {
      case 'POST all': {
        // Bulk create (README, Queries): the records in the order sent.
        if (Array.isArray(body)) {
          const rows = answer as Row[];
          if (!Array.isArray(rows) || rows.length !== body.length) {
            return [
              `bulk create of ${body.length} answered ${JSON.stringify(answer).slice(0, 200)}`,
            ];
          }
          return rows.flatMap((created, index) => {
            const values = this.#written(
              resource,
              { ...rules.defaults, ...(body[index] as Row) },
              true,
            );
            this.#table(resource).set(String(created.id), {
              values,
              created_at: String(created.created_at),
            });
            return this.#differences(resource, String(created.id), created, 'bulk create answer');
          });
        }
        const created = answer as Row;
        const values = this.#written(resource, { ...rules.defaults, ...(body as Row) }, true);
        this.#table(resource).set(String(created.id), {
          values,
          created_at: String(created.created_at),
        });
        return this.#differences(resource, String(created.id), created, 'create answer');
      }
      case 'PUT one':
      case 'PATCH one': {
        if (!id) return [];
        const stored = this.#table(resource).get(id);
        if (!stored) return [`${operation.key} acknowledged for ${id}, which the model lacks`];
        const replace = operation.method === 'PUT' && !rules.putIsPartial;
        const sent = this.#written(
          resource,
          replace ? { ...rules.defaults, ...(body as Row) } : (body as Row),
          replace,
        );
        stored.values = { ...stored.values, ...sent };
        return this.#differences(resource, id, answer as Row, `${operation.method} answer`);
      }
      case 'DELETE one':
        if (id) this.#delete(resource, id);
        return [];
      case 'PATCH all': {
        const problems = duplicates(body as Row[]);
        for (const item of body as Row[]) {
          const { id: itemId, add_tags: added, remove_tags: removed, ...fields } = item;
          const stored = this.#table(resource).get(String(itemId).toLowerCase());
          if (!stored) {
            problems.push(`batch PATCH acknowledged for ${String(itemId)}, which the model lacks`);
            continue;
          }
          stored.values = { ...stored.values, ...this.#written(resource, fields, false) };
          // README, Queries: add_tags and remove_tags change the record's tags as they are.
          if (added !== undefined || removed !== undefined) {
            const current = (stored.values.tags as string[] | undefined) ?? [];
            const without = new Set((removed as string[] | undefined) ?? []);
            stored.values.tags = normalise(
              [...current, ...((added as string[] | undefined) ?? [])].filter(
                (tag) => !without.has(tag),
              ),
              undefined,
            );
          }
        }
        return problems;
      }
      case 'DELETE all': {
        for (const itemId of body as string[]) this.#delete(resource, itemId.toLowerCase());
        return duplicates((body as string[]).map((id) => ({ id })));
      }
      default:
        return [];
    }
  }

  /**
   * Checks an acknowledged list or count against the model: `GET /{resource}` (its filters
   * applied to the model), `GET /{parent}/{id}/{children}` and its count, `GET /debug/count`.
   * The total must be exact, and the page hold records as last acknowledged. Lists whose
   * filters the model cannot evaluate with certainty (a coerced number, an IP in another
   * spelling, `from`/`to`) are left alone.
   */
  checkRead(
    operation: Operation,
    path: Row,
    query: readonly [string, unknown][],
    answer: unknown,
  ): string[] {
    if (operation.method !== 'GET') return [];
    if (operation.path === '/debug/count') {
      const count = (answer as { count: number }).count;
      return count === this.count('devices')
        ? []
        : [`/debug/count says ${count}, the model has ${this.count('devices')} devices`];
    }
    const [resource, second, child] = segments(operation.path);
    if (!resource || !this.#types.has(resource)) return [];
    const filters: Array<[string, string]> = [];
    let listed = resource;
    if (second === '{id}' && child) {
      const parentId = String(path.id).toLowerCase();
      const relation = CHILD_LISTS[`${resource}/${child}`];
      if (!relation) return [];
      listed = relation.resource;
      filters.push([relation.foreignKey, parentId]);
      if (!this.#table(resource).has(parentId))
        return [`${operation.key} answered for a parent the model lacks`];
      if (relation.count) {
        // A count takes its list's filters (and nothing else): the same exact matches are
        // evaluated; lookups and search are left to test/queries.test.ts, as for lists.
        for (const [name, value] of query) {
          if (name.includes('__') || name === 'q') return [];
          filters.push([name, String(value)]);
        }
        const expected = this.#matching(listed, filters);
        if (!expected) return [];
        const count = (answer as { count: number }).count;
        return count === expected.length
          ? []
          : [
              `${operation.key} ${JSON.stringify(filters)} counts ${count}, the model ${expected.length}`,
            ];
      }
    } else if (second !== undefined) {
      return [];
    }
    let page = 1;
    let limit = 10;
    for (const [name, value] of query) {
      const text = String(value);
      // Lookups, search, cursors and field selection: checked by test/queries.test.ts against
      // an oracle; here only their answers' shape is (ResponseChecker).
      if (name.includes('__') || ['q', 'cursor', 'fields', 'brief', 'format'].includes(name))
        return [];
      if (name === 'page') page = Number(text);
      else if (name === 'limit') limit = Math.min(Number(text), 100);
      else if (name === 'sortby') continue;
      else filters.push([name, text]);
    }
    const expected = this.#matching(listed, filters);
    if (!expected || !Number.isSafeInteger(page) || !Number.isSafeInteger(limit)) return [];
    const { meta, data } = answer as { meta: { total_count: number }; data: Row[] };
    const problems: string[] = [];
    if (meta.total_count !== expected.length) {
      problems.push(
        `${operation.key} ${JSON.stringify(filters)}: total_count ${meta.total_count}, the model has ${expected.length}`,
      );
    }
    const onPage = Math.max(0, Math.min(limit, expected.length - (page - 1) * limit));
    if (data.length !== onPage)
      problems.push(
        `${operation.key}: ${data.length} records on the page, the model expects ${onPage}`,
      );
    for (const row of data) {
      if (!expected.includes(String(row.id)))
        problems.push(`${operation.key} listed ${String(row.id)}, which does not match`);
      else problems.push(...this.#differences(listed, String(row.id), row, 'list'));
    }
    return problems;
  }

  /** Ids of `resource` matching exact-match filters given as query text; undefined if unsure. */
  #matching(resource: string, filters: readonly [string, string][]): string[] | undefined {
    const { formats, kinds } = this.#types.get(resource) as FieldTypes;
    const tests: Array<(value: unknown) => boolean> = [];
    for (const [field, text] of filters) {
      if (!(field in formats)) return undefined;
      const format = formats[field];
      const kind = kinds[field];
      if (kind === 'integer') {
        if (!/^(0|-?[1-9][0-9]*)$/.test(text)) return undefined;
        tests.push((value) => value === Number(text));
      } else if (kind === 'boolean') {
        if (text !== 'true' && text !== 'false') return undefined;
        tests.push((value) => value === (text === 'true'));
      } else if (format === 'uuid') {
        tests.push((value) => value === text.toLowerCase());
      } else if (format === 'date-time') {
        const time = new Date(text).getTime();
        if (Number.isNaN(time)) return undefined;
        tests.push((value) => typeof value === 'string' && new Date(value).getTime() === time);
      } else if (format === 'ip') {
        // Only IPv4 in its one spelling; inet compares addresses, not text.
        if (
          !/^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$/.test(
            text,
          )
        )
          return undefined;
        tests.push((value) => value === text);
      } else if (kind === 'string') {
        const composed = isName(resource, field) ? text.normalize('NFC') : text;
        tests.push((value) => value === text || value === composed);
      } else if (kind === 'array') {
        // `?tags=a&tags=b`: records carrying every tag given.
        tests.push((value) => Array.isArray(value) && value.includes(text));
      } else {
        return undefined;
      }
    }
    const fields = filters.map(([field]) => field);
    return [...this.#table(resource)]
      .filter(([, stored]) =>
        tests.every((test, index) => test(stored.values[fields[index] as string])),
      )
      .map(([id]) => id);
  }

  /**
   * Compares the model with the service's records of every modelled resource (`read` lists
   * them all): the same ids, and every field as last acknowledged.
   */
  async compare(read: (resource: string) => Promise<Row[]>): Promise<string[]> {
    const problems: string[] = [];
    for (const resource of MODELLED_RESOURCES) {
      const rows = await read(resource);
      const table = this.#table(resource);
      const seen = new Set<string>();
      for (const row of rows) {
        const id = String(row.id);
        seen.add(id);
        if (!table.has(id)) {
          problems.push(
            `${resource} ${id} exists but no acknowledged write created it: ${JSON.stringify(row)}`,
          );
          continue;
        }
        problems.push(...this.#differences(resource, id, row, 'read'));
      }
      for (const id of table.keys()) {
        if (!seen.has(id)) problems.push(`${resource} ${id} was acknowledged but is missing`);
      }
    }
    return problems;
  }

  #table(resource: string): Map<string, Stored> {
    const table = this.#records.get(resource);
    if (!table) throw new Error(`${resource} is not modelled`);
    return table;
  }

  #delete(resource: string, id: string) {
    const table = this.#table(resource);
    if (!table.delete(id)) return;
    this.#gone.get(resource)?.push(id);
    for (const [child, field, effect] of ON_DELETE[resource] ?? []) {
      for (const [childId, stored] of this.#table(child)) {
        if (stored.values[field] !== id) continue;
        if (effect === 'cascade') this.#delete(child, childId);
        else stored.values[field] = null;
      }
    }
  }

  /**
   * The values a write stores: uuids in lower case, instants as the service writes them,
   * derived fields filled in; a full write (create, replace) sets every absent field to null.
   */
  #written(resource: string, sent: Row, full: boolean): Row {
    const { fields, formats } = this.#types.get(resource) as FieldTypes;
    const derived = RULES[resource]?.derive?.(sent) ?? sent;
    const values: Row = {};
    for (const field of fields) {
      if (!(field in derived) || derived[field] === undefined) {
        if (full) values[field] = null;
        continue;
      }
      const value = normalise(derived[field], formats[field]);
      values[field] =
        isName(resource, field) && typeof value === 'string' ? value.normalize('NFC') : value;
    }
    return values;
  }

  #project(resource: string, row: Row): Row {
    const { fields, formats } = this.#types.get(resource) as FieldTypes;
    return Object.fromEntries(
      fields.map((field) => [field, normalise(row[field], formats[field])]),
    );
  }

  #differences(resource: string, id: string, row: Row, what: string): string[] {
    const stored = this.#table(resource).get(id);
    if (!stored) return [`${resource} ${id}: not in the model`];
    const actual = this.#project(resource, row);
    const problems: string[] = [];
    for (const [field, expected] of Object.entries(stored.values)) {
      if (RULES[resource]?.ignore?.includes(field)) continue;
      if (JSON.stringify(actual[field]) !== JSON.stringify(expected)) {
        problems.push(
          `${resource} ${id} ${field}: ${what} has ${JSON.stringify(actual[field])}, acknowledged ${JSON.stringify(expected)}`,
        );
      }
    }
    if (row.created_at !== undefined && String(row.created_at) !== stored.created_at) {
      problems.push(
        `${resource} ${id} created_at changed from ${stored.created_at} to ${String(row.created_at)}`,
      );
    }
    return problems;
  }
}

/** README: "an id may appear once per batch" (in any letter case: uuids are case-insensitive). */
function duplicates(items: readonly Row[]): string[] {
  const ids = items.map((item) => String(item.id).toLowerCase());
  const twice = ids.filter((id, index) => ids.indexOf(id) !== index);
  return twice.length > 0 ? [`a batch naming ${twice.join(', ')} twice was acknowledged`] : [];
}

function normalise(value: unknown, format: string | undefined): unknown {
  if (value === undefined) return null;
  // Tags, the only list field: a set, stored sorted (README, Queries).
  if (Array.isArray(value)) return [...new Set(value as string[])].sort();
  if (typeof value !== 'string') return value;
  if (format === 'uuid') return value.toLowerCase();
  if (format === 'date-time') {
    const time = new Date(value);
    return Number.isNaN(time.getTime()) ? value : time.toISOString();
  }
  return value;
}
