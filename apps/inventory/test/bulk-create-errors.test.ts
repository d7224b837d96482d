import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from './helpers.js';

/**
 * A bulk create (a JSON array or a CSV file) refused for one bad item says which item and which
 * field, with the same message for the same rule whichever way the records came: `Item 2 (ip):
 * Invalid IP address format` for the array's third item, `Row 4 (ip): …` for the file's fourth
 * row (the header is row 1). Nothing of the batch is written.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

const createJson = (payload: object) =>
  ctx.as('admin', { method: 'POST', url: '/devices', payload });
const createCsv = (text: string) =>
  ctx.as('admin', {
    method: 'POST',
    url: '/devices',
    headers: { 'content-type': 'text/csv' },
    payload: text,
  });

/** Three devices, the third of which breaks `rule`; as a JSON array and as CSV rows. */
const BAD_THIRD_ITEM: Array<{
  rule: string;
  third: Record<string, string>;
  field: string;
  message: string;
}> = [
  {
    rule: 'an address that is no IP',
    third: { hostname: 'bulk-c', ip: '999.1.1.1' },
    field: 'ip',
    message: 'Invalid IP address format',
  },
  {
    rule: 'a status outside the lifecycle',
    third: { hostname: 'bulk-c', ip: '10.9.0.3', status: 'broken' },
    field: 'status',
    message: 'must be one of active, offline, maintenance, provisioning, decommissioned',
  },
  {
    rule: 'a required field left out',
    third: { hostname: 'bulk-c' },
    field: 'ip',
    message: 'is required',
  },
  {
    rule: 'a location id that is no UUID',
    third: { hostname: 'bulk-c', ip: '10.9.0.3', location_id: 'nope' },
    field: 'location_id',
    message: 'must be a UUID',
  },
];

const GOOD = [
  { hostname: 'bulk-a', ip: '10.9.0.1' },
  { hostname: 'bulk-b', ip: '10.9.0.2' },
];

function csvOf(records: ReadonlyArray<Record<string, string>>): string {
  const header = ['hostname', 'ip', 'status', 'location_id'];
  const lines = records.map((record) => header.map((field) => record[field] ?? '').join(','));
  return `${[header.join(','), ...lines].join('\n')}\n`;
}

describe('bulk create errors', () => {
  it.each(BAD_THIRD_ITEM)('name the item and the field for $rule (JSON array)', async (bad) => {
    const response = await createJson([...GOOD, bad.third]);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      status: 'error',
      message: `Item 2 (${bad.field}): ${bad.message}`,
    });
  });

  it.each(BAD_THIRD_ITEM)('name the row and the field for $rule (CSV)', async (bad) => {
    const response = await createCsv(csvOf([...GOOD, bad.third]));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      status: 'error',
      message: `Row 4 (${bad.field}): ${bad.message}`,
    });
  });

  it('write nothing of a refused batch, and a single record keeps the plain message', async () => {
    const list = await ctx.as('viewer', { method: 'GET', url: '/devices?hostname__isw=bulk-' });
    expect(list.json().meta.total_count).toBe(0);
    const single = await createJson({ hostname: 'one', ip: '999.1.1.1' });
    expect(single.json()).toEqual({ status: 'error', message: 'Invalid IP address format' });
  });
});
