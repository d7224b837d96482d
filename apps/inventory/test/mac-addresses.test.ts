import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { auditRowsOf, create, unique, useTestApp } from './helpers.js';
import { withoutCheck } from './older-release.js';

/**
 * A MAC address is one value whatever the letter case it is written in, as an IP address is
 * one value however it is written: stored in lower case, and found by a filter in any case.
 */
const ctx = useTestApp();

async function anInterface(mac: string) {
  const device = await create(ctx, 'devices', { hostname: unique('mac'), ip: '192.0.2.1' });
  return create(ctx, 'interfaces', { device_id: device.id, name: 'eth0', mac_address: mac });
}

const ids = async (query: string) =>
  (await ctx.as('admin', { method: 'GET', url: `/interfaces?${query}` }))
    .json()
    .data.map((row: { id: string }) => row.id);

describe('MAC addresses', () => {
  it('are stored in lower case, whichever write sent them', async () => {
    const created = await anInterface('AA:BB:CC:DD:EE:01');
    expect(created.mac_address).toBe('aa:bb:cc:dd:ee:01');
    const patched = await ctx.as('admin', {
      method: 'PATCH',
      url: `/interfaces/${created.id}`,
      payload: { mac_address: 'AA:BB:CC:DD:EE:0F' },
    });
    expect(patched.json().mac_address).toBe('aa:bb:cc:dd:ee:0f');
    const batch = await ctx.as('admin', {
      method: 'PATCH',
      url: '/interfaces',
      payload: [{ id: created.id, mac_address: 'Aa:Bb:Cc:Dd:Ee:02' }],
    });
    expect(batch.statusCode, batch.body).toBe(200);
    const read = await ctx.as('admin', { method: 'GET', url: `/interfaces/${created.id}` });
    expect(read.json().mac_address).toBe('aa:bb:cc:dd:ee:02');
    const imported = await ctx.as('admin', {
      method: 'POST',
      url: '/interfaces',
      headers: { 'content-type': 'text/csv' },
      payload: `device_id,name,mac_address\n${created.device_id},eth1,DE:AD:BE:EF:00:01\n`,
    });
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json()[0].mac_address).toBe('de:ad:be:ef:00:01');
  });

  it('are found by a filter in any letter case', async () => {
    const created = await anInterface('AA:BB:CC:DD:EE:10');
    for (const query of [
      'mac_address=AA:BB:CC:DD:EE:10',
      'mac_address=aa:bb:cc:dd:ee:10',
      'mac_address=aA:bB:cC:dD:eE:10',
      'mac_address__in=AA:BB:CC:DD:EE:10,00:00:00:00:00:00',
      'mac_address__gte=AA:BB:CC:DD:EE:10&mac_address__lte=AA:BB:CC:DD:EE:10',
      'mac_address__ie=AA:BB:CC:DD:EE:10',
    ]) {
      expect(await ids(query), query).toEqual([created.id]);
    }
    expect(await ids(`mac_address__n=AA:BB:CC:DD:EE:10&device_id=${created.device_id}`)).toEqual(
      [],
    );
  });

  it('stored before in upper case are lowered by the migration, without history', async () => {
    const created = await anInterface('00:11:22:33:44:55');
    await withoutCheck(ctx.store, 'interfaces', 'interfaces_mac_address_lower_case', async () => {
      await sql`UPDATE interfaces SET mac_address = 'AB:CD:EF:00:11:22' WHERE id = ${created.id}`.execute(
        ctx.store.db,
      );
      const migration = await readFile(
        new URL('../src/db/migrations/032_mac_addresses_in_lower_case.sql', import.meta.url),
        'utf8',
      );
      await ctx.store.scriptTransaction((tx) => tx.exec(migration));
    });
    const read = await ctx.as('admin', { method: 'GET', url: `/interfaces/${created.id}` });
    expect(read.json().mac_address).toBe('ab:cd:ef:00:11:22');
    expect((await auditRowsOf(ctx, created.id)).length).toBe(1);
  });
});
