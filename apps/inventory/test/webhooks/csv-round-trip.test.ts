import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_SETTINGS } from '../../src/webhooks/worker.js';
import { startTestApp, type TestContext } from '../helpers.js';

/**
 * A file exported by this API imports as new records with the same data, webhooks included:
 * their object fields (`filter`, `headers`) are exported as JSON text and read back as objects.
 * A refused URL in an imported file is named by its row, as every other error of a CSV row.
 */

const importCsv = (ctx: TestContext, text: string) =>
  ctx.as('admin', {
    method: 'POST',
    url: '/webhooks',
    headers: { 'content-type': 'text/csv' },
    payload: text,
  });

describe('webhooks through CSV', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // No delivery worker: nothing is sent; private targets allowed, so a loopback URL is stored.
    ctx = await startTestApp({
      webhooks: {
        ...DEFAULT_WEBHOOK_SETTINGS,
        allowPrivateTargets: true,
        workerEnabled: false,
        secretKey: undefined,
      },
    });
  });
  afterAll(() => ctx?.close());

  it('an export imports again with the same objects', async () => {
    const hooks = [
      {
        name: 'with-objects',
        url: 'http://127.0.0.1:9/hook',
        filter: { status: 'maintenance', tags: ['core'], enabled: true, count: 2, gone: null },
        headers: { 'X-Team': 'net,ops "a"' },
        events: ['created', 'deleted'],
      },
      { name: 'plain', url: 'http://127.0.0.1:9/other' },
    ];
    for (const payload of hooks) {
      const created = await ctx.as('admin', { method: 'POST', url: '/webhooks', payload });
      expect(created.statusCode, created.body).toBe(201);
    }
    const exported = await ctx.as('admin', { method: 'GET', url: '/webhooks?format=csv' });
    expect(exported.statusCode).toBe(200);
    const before = await ctx.as('admin', { method: 'GET', url: '/webhooks?sortby=name:asc' });
    await ctx.store.scriptTransaction((tx) => tx.exec('DELETE FROM webhooks'));

    const imported = await importCsv(ctx, exported.body);
    expect(imported.statusCode, imported.body).toBe(201);
    const after = await ctx.as('admin', { method: 'GET', url: '/webhooks?sortby=name:asc' });
    const same = (body: { data: Array<Record<string, unknown>> }) =>
      body.data.map(({ id, created_at, updated_at, ...rest }) => rest);
    expect(same(after.json())).toEqual(same(before.json()));
    expect(after.json().data[1].filter).toEqual(hooks[0]?.filter);
  });

  it('an object cell that is not JSON, or JSON that is not an object, is refused naming the row', async () => {
    for (const [cell, reason] of [
      ['{"a":', 'must be object'],
      ['[1]', 'must be object'],
      ['"x"', 'must be object'],
    ] as const) {
      const quoted = `"${cell.replaceAll('"', '""')}"`;
      const response = await importCsv(ctx, `name,url,headers\nh,http://127.0.0.1:9/h,${quoted}\n`);
      expect(response.statusCode, cell).toBe(400);
      expect(response.json()).toEqual({ status: 'error', message: `Row 2 (headers): ${reason}` });
    }
  });
});

describe('a refused URL in a CSV import', () => {
  let strict: TestContext;
  beforeAll(async () => {
    strict = await startTestApp();
  });
  afterAll(() => strict?.close());

  it('is named by its row', async () => {
    const response = await importCsv(strict, 'name,url\nlocal,http://127.0.0.1/h\n');
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toMatch(/^Row 2 \(url\): /);
    // A JSON array's item keeps its index.
    const array = await strict.as('admin', {
      method: 'POST',
      url: '/webhooks',
      payload: [{ name: 'local', url: 'http://127.0.0.1/h' }],
    });
    expect(array.json().message).toMatch(/^Item 0 \(url\): /);
  });
});
