import { parse } from 'csv-parse/sync';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyDatabase } from '../src/db/schema.js';
import { csvLine, EXPORT_BATCH } from '../src/resources/csv-export.js';
import { cellValue } from '../src/resources/csv-import.js';
import { devices } from '../src/resources/definitions/devices.js';
import { isTimestamp } from '../src/resources/list.js';
import { kindOf } from '../src/resources/lookups.js';
import { visibleColumns } from '../src/resources/rows.js';
import { webhookDefinition } from '../src/webhooks/definition.js';
import { DEFINITIONS } from './declared-columns.js';
import { startTestApp, statementCountingApp, type TestContext } from './helpers.js';

/** CSV export: every matching row, RFC 4180 (read back with csv-parse), OWASP-safe. */

let ctx: TestContext;
const VLANS = EXPORT_BATCH + 205;

beforeAll(async () => {
  ctx = await startTestApp();
  const rows = Array.from({ length: VLANS }, (_, index) => ({
    id: uuidv7(),
    vlan_id: index + 1,
    name: `vlan-${index + 1}`,
    description:
      index === 0
        ? 'has "quotes", commas\nand a line break'
        : index === 1
          ? '=HYPERLINK("http://evil.example")'
          : index === 2
            ? '-2+3'
            : null,
    status: index % 2 === 0 ? 'active' : '@reserved',
    tags: index % 3 === 0 ? ['core', 'prod'] : [],
  }));
  const db = ctx.store.db as AnyDatabase;
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insertInto('vlans')
      .values(rows.slice(start, start + 500))
      .execute();
  }
});
afterAll(() => ctx?.close());

const exportCsv = async (url: string, headers: Record<string, string> = {}) => {
  const response = await ctx.as('viewer', { method: 'GET', url, headers });
  expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  return parse(response.body, { columns: true }) as Array<Record<string, string>>;
};

describe('CSV export', () => {
  it('has every matching row across batches, in the list order, read back by a CSV parser', async () => {
    const rows = await exportCsv('/vlans?format=csv&sortby=vlan_id:desc');
    expect(rows).toHaveLength(VLANS);
    expect(rows.map((row) => Number(row.vlan_id))).toEqual(
      Array.from({ length: VLANS }, (_, i) => VLANS - i),
    );
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'id',
      'created_at',
      'updated_at',
      'vlan_id',
      'name',
      'description',
      'status',
      'tags',
    ]);
    const first = rows.find((row) => row.vlan_id === '1');
    expect(first?.description).toBe('has "quotes", commas\nand a line break');
    expect(first?.tags).toBe('core,prod');
    expect(rows.find((row) => row.vlan_id === '5')?.tags).toBe('');
  });

  it('neutralises cells a spreadsheet would evaluate', async () => {
    const rows = await exportCsv(
      '/vlans?format=csv&vlan_id__lte=3&fields=vlan_id,description,status',
    );
    expect(rows).toEqual([
      { vlan_id: '1', description: 'has "quotes", commas\nand a line break', status: 'active' },
      { vlan_id: '2', description: `'=HYPERLINK("http://evil.example")`, status: `'@reserved` },
      { vlan_id: '3', description: `'-2+3`, status: 'active' },
    ]);
  });

  it('answers Accept: text/csv, honours filters and fields, refuses paging', async () => {
    const rows = await exportCsv('/vlans?tags=prod&fields=name', { accept: 'text/csv' });
    expect(rows).toHaveLength(Math.ceil(VLANS / 3));
    expect(Object.keys(rows[0] ?? {})).toEqual(['name']);
    const json = await ctx.as('viewer', {
      method: 'GET',
      url: '/vlans?limit=1',
      headers: { accept: 'application/json, text/csv' },
    });
    expect(json.headers['content-type']).toContain('application/json');
    // Quality values decide (the order of the types in the text did: the first of these got
    // CSV, the second JSON, and text/csvx CSV).
    for (const [accept, type] of [
      ['text/csv;q=0, application/json;q=0.5', 'application/json'],
      ['application/json;q=0.1, text/csv', 'text/csv'],
      ['text/csvx', 'application/json'],
      ['text/csv, application/json', 'text/csv'],
      ['text/html,application/xhtml+xml,*/*;q=0.8', 'application/json'],
      ['*/*', 'application/json'],
      ['TEXT/CSV', 'text/csv'],
      ['application/json;q=0.1, */*', 'text/csv'],
    ]) {
      const answer = await ctx.as('viewer', {
        method: 'GET',
        url: '/vlans?limit=1',
        headers: { accept },
      });
      expect(answer.headers['content-type'], accept).toContain(type);
      expect(String(answer.headers.vary).split(/, */), accept).toContain('Accept');
    }
    // With CORS, the Origin it varies on stays named (it was replaced).
    const fromBrowser = await ctx.as('viewer', {
      method: 'GET',
      url: '/vlans?limit=1',
      headers: { origin: 'http://localhost:5173' },
    });
    expect(fromBrowser.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(String(fromBrowser.headers.vary).split(/, */)).toEqual(['Origin', 'Accept']);
    for (const url of ['/vlans?format=csv&page=2', '/vlans?format=xml']) {
      const response = await ctx.as('viewer', { method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
    }
  });
  it('refuses a filter value PostgreSQL cannot hold (a NUL byte) before the download starts, as the list does', async () => {
    for (const url of ['/vlans?name=nul%00byte', '/vlans?name=nul%00byte&format=csv']) {
      const response = await ctx.as('viewer', { method: 'GET', url });
      expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBe(400);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
      expect(response.json(), url).toMatchObject({ status: 'error', message: expect.any(String) });
    }
  });
});

describe('CSV export of lists', () => {
  it('every column whose schema is an array declares itself a list or tags', () => {
    const undeclared = [...DEFINITIONS, webhookDefinition(['devices'])].flatMap((definition) =>
      Object.entries(definition.columns)
        .filter(([, column]) => (column.schema as { type?: unknown }).type === 'array')
        .filter(([, column]) => !['list', 'tags'].includes(kindOf(column)))
        .map(([name]) => `${definition.table}.${name}`),
    );
    expect(undeclared).toEqual([]);
  });

  it("writes every array column as one cell joined with commas (an API token's scopes too)", async () => {
    const created = await ctx.as('admin', {
      method: 'POST',
      url: '/api-tokens',
      payload: { name: 'csv-scopes', scopes: ['events:read', 'events:write'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const exported = await ctx.as('admin', {
      method: 'GET',
      url: '/api-tokens?format=csv&name=csv-scopes&fields=name,scopes',
    });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(parse(exported.body, { columns: true })).toEqual([
      { name: 'csv-scopes', scopes: 'events:read,events:write' },
    ]);
  });
});

describe('CSV export cost', () => {
  it('never turns the rows into objects: PostgreSQL writes the CSV, the server passes it on', async () => {
    // Every row any statement hands back to the server while exporting, counted.
    const { app, takeRows } = await statementCountingApp(ctx);
    try {
      const response = await app.inject({
        method: 'GET',
        url: '/vlans?format=csv&sortby=name:asc',
        headers: { authorization: `Bearer ${ctx.tokens.viewer}` },
      });
      expect(response.statusCode).toBe(200);
      expect(parse(response.body, { columns: true })).toHaveLength(VLANS);
      // PostgreSQL: one COPY, outside the query path (no row at all); the embedded store: one
      // row per batch of EXPORT_BATCH records (its text). Reading rows as objects: VLANS.
      expect(takeRows()).toBeLessThanOrEqual(Math.ceil(VLANS / EXPORT_BATCH) + 1);
    } finally {
      await app.close();
    }
  });

  it('selects by filter values holding quotes, backslashes and dollar signs as the list does', async () => {
    const names = [
      `it's`,
      'back\\slash',
      `$1 and $$`,
      `E'x'`,
      `"quoted"`,
      `'; DROP TABLE vlans; --`,
    ];
    const db = ctx.store.db as AnyDatabase;
    await db
      .insertInto('vlans')
      .values(names.map((name, index) => ({ id: uuidv7(), vlan_id: 3000 + index, name, tags: [] })))
      .execute();
    for (const name of names) {
      const url = `/vlans?name=${encodeURIComponent(name)}&fields=vlan_id,name`;
      const rows = await exportCsv(`${url}&format=csv`);
      expect(rows, name).toEqual([{ vlan_id: String(3000 + names.indexOf(name)), name }]);
      const search = await exportCsv(
        `/vlans?format=csv&name__ic=${encodeURIComponent(name)}&fields=name`,
      );
      expect(
        search.map((row) => row.name),
        name,
      ).toContain(name);
    }
    const all = await exportCsv(
      '/vlans?format=csv&vlan_id__gte=3000&vlan_id__lt=3100&fields=name&sortby=vlan_id:asc',
    );
    expect(all.map((row) => row.name)).toEqual(names);
  });
});

describe('CSV import', () => {
  const importCsv = (text: string, url = '/vlans') =>
    ctx.as('admin', {
      method: 'POST',
      url,
      headers: { 'content-type': 'text/csv' },
      payload: text,
    });

  it('re-creates what an export holds (quotes, line breaks, neutralised formulas, tags)', async () => {
    const exported = await ctx.as('viewer', {
      method: 'GET',
      url: '/vlans?format=csv&vlan_id__lte=4&sortby=vlan_id:asc',
    });
    const before = parse(exported.body, { columns: true }) as Array<Record<string, string>>;
    const db = ctx.store.db as AnyDatabase;
    await db.deleteFrom('vlans').where('vlan_id', '<=', 4).execute();
    const imported = await importCsv(exported.body);
    expect(imported.statusCode, imported.body).toBe(201);
    const rows = imported.json<Array<Record<string, unknown>>>();
    expect(rows.map((row) => row.vlan_id)).toEqual([1, 2, 3, 4]);
    expect(rows[1]?.description).toBe('=HYPERLINK("http://evil.example")');
    expect(rows[0]?.tags).toEqual(['core', 'prod']);
    const after = parse(
      (
        await ctx.as('viewer', {
          method: 'GET',
          url: '/vlans?format=csv&vlan_id__lte=4&sortby=vlan_id:asc',
        })
      ).body,
      { columns: true },
    ) as Array<Record<string, string>>;
    const data = (records: Array<Record<string, string>>) =>
      records.map(({ id: _id, created_at: _c, updated_at: _u, ...rest }) => rest);
    expect(data(after)).toEqual(data(before));
  });

  it("re-creates text that itself starts with ' before a formula character", async () => {
    // Sent as data, not neutralised: the export must prefix them again, or the import's
    // stripping of one ' would change them.
    const descriptions = [
      "'=keep",
      "'+1",
      "'-1",
      "'@home",
      "'\tindent",
      "'\rbreak",
      "''=two apostrophes",
      "'plain",
      "'",
    ];
    const created = await ctx.as('admin', {
      method: 'POST',
      url: '/vlans',
      payload: descriptions.map((description, index) => ({
        vlan_id: 3201 + index,
        name: `apostrophe-${index}`,
        description,
      })),
    });
    expect(created.statusCode, created.body).toBe(201);
    const url =
      '/vlans?format=csv&vlan_id__gte=3201&vlan_id__lte=3300&sortby=vlan_id:asc&fields=vlan_id,name,description';
    const exported = await ctx.as('viewer', { method: 'GET', url });
    const cells = (parse(exported.body, { columns: true }) as Array<Record<string, string>>).map(
      (row) => row.description,
    );
    expect(cells).toEqual([
      "''=keep",
      "''+1",
      "''-1",
      "''@home",
      "''\tindent",
      "''\rbreak",
      "'''=two apostrophes",
      "'plain",
      "'",
    ]);
    const db = ctx.store.db as AnyDatabase;
    const deleteThem = () =>
      db.deleteFrom('vlans').where('vlan_id', '>=', 3201).where('vlan_id', '<=', 3300).execute();
    await deleteThem();
    const imported = await importCsv(exported.body);
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json<Array<{ description: string }>>().map((row) => row.description)).toEqual(
      descriptions,
    );
    await deleteThem();
  });

  it('re-creates tags and list cells whose first value starts with a formula character', async () => {
    const created = await ctx.as('admin', {
      method: 'POST',
      url: '/vlans',
      payload: { vlan_id: 3401, name: 'dash-tags', tags: ['-edge', 'core'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const url = '/vlans?format=csv&vlan_id=3401&fields=vlan_id,name,tags';
    const exported = await ctx.as('viewer', { method: 'GET', url });
    const cells = parse(exported.body, { columns: true }) as Array<Record<string, string>>;
    // The cell is neutralised as a whole: the ' stands before the first tag.
    expect(cells[0]?.tags).toBe("'-edge,core");
    const db = ctx.store.db as AnyDatabase;
    await db.deleteFrom('vlans').where('vlan_id', '=', 3401).execute();
    const imported = await importCsv(exported.body);
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json<Array<{ tags: string[] }>>()[0]?.tags).toEqual(['-edge', 'core']);
    // A list cell is split as a tags cell is, after the same removal.
    const hooks = webhookDefinition(['devices', 'vlans']);
    expect(cellValue(hooks, 'events', 'created,deleted')).toEqual(['created', 'deleted']);
    expect(cellValue(hooks, 'resources', "'-devices,vlans")).toEqual(['-devices', 'vlans']);
    expect(cellValue(hooks, 'resources', '')).toEqual([]);
  });

  it('re-creates devices, their addresses written as the JSON answers write them (10.0.0.1, not 10.0.0.1/32)', async () => {
    for (const [hostname, ip] of [
      ['csv-v4', '192.0.2.7'],
      ['csv-v6', '2001:db8::7'],
    ]) {
      const created = await ctx.as('admin', {
        method: 'POST',
        url: '/devices',
        payload: { hostname, ip, vendor: 'Cisco', status: 'active' },
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    const url =
      '/devices?format=csv&hostname__ic=csv-v&fields=hostname,ip,vendor,status&sortby=hostname:asc';
    const exported = await ctx.as('viewer', { method: 'GET', url });
    expect(exported.statusCode, exported.body).toBe(200);
    const cells = parse(exported.body, { columns: true }) as Array<Record<string, string>>;
    expect(cells.map((cell) => cell.ip)).toEqual(['192.0.2.7', '2001:db8::7']);
    const copies = exported.body.replaceAll('csv-v', 'copy-v');
    const imported = await importCsv(copies, '/devices');
    expect(imported.statusCode, imported.body).toBe(201);
    const rows = imported.json<Array<Record<string, unknown>>>();
    expect(rows.map((row) => [row.hostname, row.ip])).toEqual([
      ['copy-v4', '192.0.2.7'],
      ['copy-v6', '2001:db8::7'],
    ]);
  });

  it('names the row and field of a bad cell or a clash, and writes nothing', async () => {
    const cases: Array<[string, number, string]> = [
      ['vlan_id,name\n3700,a\n9999,b\n', 400, 'Row 3 (vlan_id): must be <= 4094'],
      ['vlan_id,name\n3700,a\n3701\n', 400, 'Malformed CSV'],
      ['vlan_id,name\n3700,a\n1,taken\n', 409, 'Row 3 (vlan_id): VLAN id already exists'],
      ['vlan_id,nope\n3700,a\n', 400, 'Unknown field in CSV header: nope'],
      ['vlan_id,name\n3700,<script>alert(1)</script>\n', 400, 'contains HTML or script content'],
      ['vlan_id,name\n', 400, 'at least one row'],
      ['name\nx\n', 400, 'Row 2 (vlan_id): is required'],
    ];
    for (const [text, status, message] of cases) {
      const response = await importCsv(text);
      expect(response.statusCode, text).toBe(status);
      expect(response.json().message, text).toContain(message);
    }
    const count = await ctx.as('viewer', { method: 'GET', url: '/vlans?vlan_id__gte=3700' });
    expect(count.json().meta.total_count).toBe(0);
  });
});

describe('the embedded store’s CSV record', () => {
  const compiler = new Kysely<never>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });

  it('computes each cell’s text once, however often quoting and neutralising mention it', () => {
    const fields = visibleColumns(devices);
    const timestamps = fields.filter((field) => isTimestamp(devices, field));
    const text = csvLine(devices, fields)('t').compile(compiler).sql;
    // One to_char per timestamp field (it was three per quoting, nine with a neutralised text).
    expect(timestamps.length).toBeGreaterThan(0);
    expect(text.split('to_char(').length - 1).toBe(timestamps.length);
    // And each column is read once, where the texts are computed.
    for (const field of fields) expect(text.split(`"t"."${field}"`).length - 1, field).toBe(1);
  });

  it('tests for quotes only the cells of free text', () => {
    const fields = visibleColumns(devices);
    const text = csvLine(devices, fields)('t').compile(compiler).sql;
    // A number, an id, a timestamp, a boolean or an address is written without a quote, a comma
    // or a line break; the exported text of the others is read back by two parsers in the tests
    // above.
    const freeText = fields.filter((field) => {
      const spec = devices.columns[field];
      return (
        spec !== undefined &&
        !['integer', 'uuid', 'boolean', 'timestamp', 'ip'].includes(kindOf(spec))
      );
    });
    expect(freeText).toContain('hostname');
    expect(freeText).toContain('tags');
    expect(freeText.length).toBeLessThan(fields.length);
    expect(text.split(`~ ('[",'`).length - 1).toBe(freeText.length);
  });
});
