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

/**
 * A batch PATCH names its failing item as a bulk create does, and the item is found whatever its
 * value holds (a comma) and whichever key the database names (a pair of interfaces in either
 * order).
 */
describe('batch errors name the item', () => {
  const as = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    ctx.as('admin', { method, url, payload });
  const device = async (hostname: string, ip: string) => {
    const response = await as('POST', '/devices', { hostname, ip });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string }>().id;
  };

  it('a batch PATCH clashing with a record or naming an unknown reference', async () => {
    const first = await device('batch-name-1', '10.20.0.1');
    const second = await device('batch-name-2', '10.20.0.2');
    const clash = await as('PATCH', '/devices', [
      { id: first, vendor: 'ok' },
      { id: second, hostname: 'batch-name-1' },
    ]);
    expect(clash.statusCode, clash.body).toBe(409);
    expect(clash.json().message).toBe('Item 1 (hostname): Hostname already exists');
    const reference = await as('PATCH', '/devices', [
      { id: first, vendor: 'ok' },
      { id: second, location_id: '01900000-0000-7000-8000-000000000000' },
    ]);
    expect(reference.statusCode, reference.body).toBe(400);
    expect(reference.json().message).toBe('Item 1 (location_id): Location not found');
  });

  it('a case-sensitive key is matched exactly: only the item with the very value clashes', async () => {
    await device('batch-case', '10.20.0.4');
    const created = await as('POST', '/devices', [
      { hostname: 'batch-case', ip: '10.20.0.5' },
      { hostname: 'BATCH-CASE', ip: '10.20.0.6' },
    ]);
    expect(created.statusCode, created.body).toBe(409);
    expect(created.json().message).toBe('Item 0 (hostname): Hostname already exists');
    const first = await device('batch-case-a', '10.20.0.7');
    const second = await device('batch-case-b', '10.20.0.8');
    const patched = await as('PATCH', '/devices', [
      { id: first, hostname: 'batch-case' },
      { id: second, hostname: 'Batch-Case' },
    ]);
    expect(patched.statusCode, patched.body).toBe(409);
    expect(patched.json().message).toBe('Item 0 (hostname): Hostname already exists');
  });

  it('a unique value holding a comma', async () => {
    const response = await as('POST', '/locations', [{ name: 'Paris, FR' }, { name: 'Paris, FR' }]);
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().message).toBe('Item 1 (name): Location name already exists');
  });

  it('a batch PATCH changing one part of a two-part key names its item', async () => {
    const first = await device('batch-part-1', '10.20.0.9');
    const second = await device('batch-part-2', '10.20.0.10');
    const made = await as('POST', '/interfaces', [
      { device_id: first, name: 'eth0' },
      { device_id: first, name: 'eth1' },
      { device_id: second, name: 'eth0' },
    ]);
    expect(made.statusCode, made.body).toBe(201);
    const [eth0, eth1, other] = made.json<Array<{ id: string }>>().map((row) => row.id);
    // The name alone changes: the device comes from the stored row. The item that holds the
    // clashing value without sending any part of the key (item 1) is not the one named.
    const renamed = await as('PATCH', '/interfaces', [
      { id: eth1, name: 'eth0' },
      { id: eth0, speed: '1Gbps' },
    ]);
    expect(renamed.statusCode, renamed.body).toBe(409);
    expect(renamed.json().message).toBe(
      'Item 0 (name): Interface name already exists on this device',
    );
    // The device alone changes, as an upper-case id.
    const moved = await as('PATCH', '/interfaces', [
      { id: eth0, speed: '10Gbps' },
      { id: other?.toUpperCase(), device_id: first },
    ]);
    expect(moved.statusCode, moved.body).toBe(409);
    expect(moved.json().message).toBe(
      'Item 1 (name): Interface name already exists on this device',
    );
  });

  it('one link per pair of interfaces, the pair given in both orders', async () => {
    const id = await device('batch-links', '10.20.0.3');
    const made = await as('POST', '/interfaces', [
      { device_id: id, name: 'eth0' },
      { device_id: id, name: 'eth1' },
    ]);
    expect(made.statusCode, made.body).toBe(201);
    const [a, b] = made.json<Array<{ id: string }>>().map((row) => row.id);
    const response = await as('POST', '/links', [
      { a_interface_id: a, b_interface_id: b },
      { a_interface_id: b?.toUpperCase(), b_interface_id: a },
    ]);
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().message).toBe(
      'Item 1 (a_interface_id, b_interface_id): A link between these two interfaces already exists',
    );
  });
});
