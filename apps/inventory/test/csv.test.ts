import { parse } from 'csv-parse/sync';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_BATCH } from '../src/resources/csv-export.js';
import type { AnyDatabase } from '../src/resources/repository.js';
import { startTestApp, type TestContext } from './helpers.js';

/** CSV export (issue 14): every matching row, RFC 4180 (read back with csv-parse), OWASP-safe. */

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
    for (const url of ['/vlans?format=csv&page=2', '/vlans?format=xml']) {
      const response = await ctx.as('viewer', { method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
    }
  });
});
