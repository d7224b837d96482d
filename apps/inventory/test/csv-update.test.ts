import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { create, unique, useTestApp } from './helpers.js';

/**
 * A batch update reads CSV as well as JSON (`PATCH /devices` with `Content-Type: text/csv`): an
 * export edited in a spreadsheet and sent back changes the records its `id` column names, in the
 * fields whose cells hold something, all rows or none, each error naming its row.
 */
const ctx = useTestApp();

const csv = { 'content-type': 'text/csv' };

const patchCsv = (payload: string | Buffer, headers: Record<string, string> = csv) =>
  ctx.as('admin', { method: 'PATCH', url: '/devices', headers, payload });

const read = async (id: string) =>
  (await ctx.as('admin', { method: 'GET', url: `/devices/${id}` })).json();

const devices = (count: number, fields: Record<string, unknown> = {}) =>
  Promise.all(
    Array.from({ length: count }, (_, index) =>
      create(ctx, 'devices', {
        hostname: unique('upd'),
        ip: `192.0.2.${index + 1}`,
        model: 'MX480',
        ...fields,
      }),
    ),
  );

describe('CSV batch update', () => {
  it('takes an export back, changing what was edited and keeping the rest', async () => {
    const [first, second] = await devices(2, { tags: ['edge'] });
    const exported = await ctx.as('viewer', {
      method: 'GET',
      url: `/devices?format=csv&id__in=${first?.id},${second?.id}&sortby=hostname:asc`,
    });
    expect(exported.statusCode, exported.body).toBe(200);
    const rows = parse(exported.body, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2);
    for (const row of rows) row.status = 'maintenance';
    const edited = stringify(rows, { header: true });

    const response = await patchCsv(edited);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ status: 'success', count: 2 });
    for (const device of [first, second]) {
      const now = await read(String(device?.id));
      expect(now.status).toBe('maintenance');
      expect(now.hostname).toBe(device?.hostname);
      expect(now.ip).toBe(device?.ip);
      expect(now.model).toBe('MX480');
      expect(now.tags).toEqual(['edge']);
    }
    // Each row is a change like any other: in the record's history, by the admin.
    const history = await ctx.as('admin', { method: 'GET', url: `/devices/${first?.id}/history` });
    expect(history.statusCode, history.body).toBe(200);
    expect(JSON.stringify(history.json())).toContain('maintenance');
  });

  it('leaves a field whose cell is empty as it is, and sets the others', async () => {
    const [device] = await devices(1, { os: 'junos' });
    const response = await patchCsv(`id,model,os,add_tags\n${device?.id},,eos,"core,lab"\n`);
    expect(response.statusCode, response.body).toBe(200);
    const now = await read(String(device?.id));
    expect(now.model).toBe('MX480');
    expect(now.os).toBe('eos');
    expect(now.tags).toEqual(['core', 'lab']);
  });

  it('names the row of a value the schema refuses, and changes no row', async () => {
    const [kept, other] = await devices(2);
    const response = await patchCsv(
      `id,status\n${kept?.id},maintenance\n\n${other?.id},sideways\n`,
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toMatch(/^Row 4 \(status\): must be one of /);
    expect((await read(String(kept?.id))).status).not.toBe('maintenance');
  });

  it('names the row of an id no record has, and changes no row', async () => {
    const [kept] = await devices(1);
    const missing = '01900000-0000-7000-8000-000000000000';
    const response = await patchCsv(`id,model\n${kept?.id},changed\n${missing},changed\n`);
    expect(response.statusCode, response.body).toBe(404);
    expect(response.json()).toEqual({
      status: 'error',
      message: `Row 3: Device not found: ${missing}`,
    });
    expect((await read(String(kept?.id))).model).toBe('MX480');
  });

  it('names the row that takes a unique value another record holds', async () => {
    const [one, two, taken] = await devices(3);
    const response = await patchCsv(
      `id,hostname\n${one?.id},${unique('free')}\n${two?.id},${taken?.hostname}\n`,
    );
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().message).toMatch(/^Row 3 \(hostname\): /);
    expect((await read(String(one?.id))).hostname).toBe(one?.hostname);
  });

  it('refuses a file without ids, a row without its id, a row that changes nothing', async () => {
    const [device] = await devices(1);
    const noIds = await patchCsv('hostname,model\nx,y\n');
    expect(noIds.statusCode).toBe(400);
    expect(noIds.json().message).toBe(
      'CSV needs an id column to change records: the id of the record each row changes, as an export writes it',
    );
    const emptyId = await patchCsv(`id,model\n${device?.id},a\n,b\n`);
    expect(emptyId.statusCode).toBe(400);
    expect(emptyId.json().message).toBe(
      'Row 3 (id): is empty: give the id of the record this row changes',
    );
    const nothing = await patchCsv(`id,model,created_at\n${device?.id},,2026-01-01T00:00:00Z\n`);
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().message).toBe('Row 2: changes nothing (every cell but the id is empty)');
    const notAnId = await patchCsv('id,model\nnot-an-id,a\n');
    expect(notAnId.statusCode).toBe(400);
    expect(notAnId.json().message).toMatch(/^Row 2 \(id\): /);
    const unknown = await patchCsv(`id,no_such_field\n${device?.id},a\n`);
    expect(unknown.json().message).toBe('Unknown field in CSV header: no_such_field');
    const twice = await patchCsv(`id,model,id\n${device?.id},a,${device?.id}\n`);
    expect(twice.json().message).toBe('CSV header names id twice');
    expect((await read(String(device?.id))).model).toBe('MX480');
  });

  it('reads windows-1252, and refuses markup in a cell like any write', async () => {
    const [device] = await devices(1);
    const latin = await patchCsv(Buffer.from(`id,model\n${device?.id},M\xfcnchen-1\n`, 'latin1'), {
      'content-type': 'text/csv; charset=windows-1252',
    });
    expect(latin.statusCode, latin.body).toBe(200);
    expect((await read(String(device?.id))).model).toBe('München-1');
    const markup = await patchCsv(`id,model\n${device?.id},<b>x</b>\n`);
    expect(markup.statusCode).toBe(400);
    expect(markup.json().message).toMatch(/contains HTML or script content/);
    expect((await read(String(device?.id))).model).toBe('München-1');
  });

  it('takes back the whole export of each resource unchanged', async () => {
    const location = await create(ctx, 'locations', { name: unique('loc'), city: 'Basel' });
    const [device] = await devices(1, { location_id: location.id, tags: ['edge', 'core'] });
    const a = await create(ctx, 'interfaces', {
      device_id: device?.id,
      name: 'eth0',
      speed: '2.5Gbps',
    });
    const b = await create(ctx, 'interfaces', { device_id: device?.id, name: 'eth1' });
    const vlan = await create(ctx, 'vlans', { vlan_id: 3001, name: unique('v') });
    const link = await create(ctx, 'links', { a_interface_id: a.id, b_interface_id: b.id });
    const hook = await create(ctx, 'webhooks', {
      name: unique('hook'),
      url: 'http://93.184.215.14/hook',
      resources: ['devices', 'links'],
      events: ['updated'],
      headers: { 'X-Team': 'netops' },
    });
    for (const [resource, id] of [
      ['locations', location.id],
      ['devices', device?.id],
      ['interfaces', a.id],
      ['vlans', vlan.id],
      ['links', link.id],
      ['webhooks', hook.id],
    ] as const) {
      const before = (await ctx.as('admin', { method: 'GET', url: `/${resource}/${id}` })).json();
      const exported = await ctx.as('admin', {
        method: 'GET',
        url: `/${resource}?format=csv&id__in=${id}`,
      });
      expect(exported.statusCode, exported.body).toBe(200);
      const response = await ctx.as('admin', {
        method: 'PATCH',
        url: `/${resource}`,
        headers: csv,
        payload: exported.body,
      });
      expect(response.statusCode, `${resource}: ${response.body}`).toBe(200);
      const after = (await ctx.as('admin', { method: 'GET', url: `/${resource}/${id}` })).json();
      const { updated_at: _before, ...kept } = before;
      const { updated_at: _after, ...now } = after;
      expect(now, resource).toEqual(kept);
    }
  });

  it("refuses the whole file with 412 when a row's etag is no longer the record's", async () => {
    const [one, two] = await devices(2);
    const etag = (await ctx.as('admin', { method: 'GET', url: `/devices/${two?.id}` })).headers
      .etag as string;
    const fresh = await patchCsv(`id,etag,model\n${two?.id},"${etag.replaceAll('"', '""')}",v2\n`);
    expect(fresh.statusCode, fresh.body).toBe(200);
    const stale = await patchCsv(
      `id,etag,model\n${one?.id},,v3\n${two?.id},"${etag.replaceAll('"', '""')}",v3\n`,
    );
    expect(stale.statusCode, stale.body).toBe(412);
    expect(stale.json().message).toMatch(/^Row 3: Precondition failed: devices /);
    expect((await read(String(one?.id))).model).toBe('MX480');
  });

  it('refuses an id given twice, whatever its case, naming both rows', async () => {
    const [device] = await devices(1);
    for (const again of [String(device?.id), String(device?.id).toUpperCase()]) {
      const response = await patchCsv(`id,model\n${device?.id},a\n${again},b\n`);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(
        'Row 3 (id): row 2 changes this record already: give each id once',
      );
    }
    expect((await read(String(device?.id))).model).toBe('MX480');
  });

  it('leaves a list or tags field whose cell is empty as it is', async () => {
    const [device] = await devices(1, { tags: ['keep'] });
    const tagged = await patchCsv(`id,model,tags\n${device?.id},changed,\n`);
    expect(tagged.statusCode, tagged.body).toBe(200);
    expect(await read(String(device?.id))).toMatchObject({ model: 'changed', tags: ['keep'] });
    const hook = await create(ctx, 'webhooks', {
      name: unique('hook'),
      url: 'http://93.184.215.14/hook',
      resources: ['devices'],
      events: ['updated'],
    });
    const webhook = await ctx.as('admin', {
      method: 'PATCH',
      url: '/webhooks',
      headers: csv,
      payload: `id,name,resources,events\n${hook.id},${unique('renamed')},,\n`,
    });
    expect(webhook.statusCode, webhook.body).toBe(200);
    const after = (await ctx.as('admin', { method: 'GET', url: `/webhooks/${hook.id}` })).json();
    expect(after).toMatchObject({ resources: ['devices'], events: ['updated'] });
  });

  it('takes tag changes only where the records have tags', async () => {
    const hook = await create(ctx, 'webhooks', {
      name: unique('hook'),
      url: 'http://93.184.215.14/hook',
    });
    const response = await ctx.as('admin', {
      method: 'PATCH',
      url: '/webhooks',
      headers: csv,
      payload: `id,add_tags\n${hook.id},x\n`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Unknown field in CSV header: add_tags');
  });

  it('is refused to a viewer', async () => {
    const [device] = await devices(1);
    const response = await ctx.as('viewer', {
      method: 'PATCH',
      url: '/devices',
      headers: csv,
      payload: `id,model\n${device?.id},x\n`,
    });
    expect(response.statusCode).toBe(403);
  });
});
