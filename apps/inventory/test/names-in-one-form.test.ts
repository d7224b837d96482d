import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_SETTINGS } from '../src/webhooks/worker.js';
import { auditRowsOf, create, unique, useTestApp } from './helpers.js';

/**
 * A name is stored in Unicode's composed form (NFC): `é` written as U+00E9 and as `e` followed by
 * a combining acute accent (U+0301) is one name, so two records cannot be named alike in the two
 * forms, and a filter finds a name whichever form it is given in.
 */
// No delivery worker, private targets allowed: a webhook's loopback URL is stored, never called.
const ctx = useTestApp({
  webhooks: {
    ...DEFAULT_WEBHOOK_SETTINGS,
    allowPrivateTargets: true,
    workerEnabled: false,
    secretKey: undefined,
  },
});

const composed = (text: string) => text.normalize('NFC');
const decomposed = (text: string) => text.normalize('NFD');

/** A name holding an accented letter, unique to the test, in the form asked for. */
const accented = (prefix: string) => `${unique(prefix)}-café-Ångström`;

const hostnames = async (query: string) =>
  (await ctx.as('admin', { method: 'GET', url: `/devices?${query}` }))
    .json()
    .data.map((row: { hostname: string }) => row.hostname);

describe('Names in one Unicode form', () => {
  it('are stored composed, whichever write sent them', async () => {
    const name = accented('nfc-write');
    expect(decomposed(name)).not.toBe(name);
    const created = await create(ctx, 'devices', { hostname: decomposed(name), ip: '192.0.2.1' });
    expect(created.hostname).toBe(composed(name));

    const patched = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${created.id}`,
      payload: { hostname: decomposed(`${name}-2`), serial_number: decomposed(`SN-${name}`) },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().hostname).toBe(composed(`${name}-2`));
    expect(patched.json().serial_number).toBe(composed(`SN-${name}`));

    const imported = await ctx.as('admin', {
      method: 'POST',
      url: '/interfaces',
      headers: { 'content-type': 'text/csv' },
      payload: `device_id,name\n${created.id},${decomposed('Port-Ä1')}\n`,
    });
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json()[0].name).toBe(composed('Port-Ä1'));

    const location = await create(ctx, 'locations', { name: decomposed(accented('Zürich')) });
    expect(location.name).toBe(composed(String(location.name)));

    const replaced = await ctx.as('admin', {
      method: 'PUT',
      url: `/locations/${location.id}`,
      payload: { name: decomposed(`${location.name}-put`) },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().name).toBe(composed(`${location.name}-put`));

    const bulk = await ctx.as('admin', {
      method: 'POST',
      url: '/vlans',
      payload: [
        { vlan_id: 3001, name: decomposed('Café-A') },
        { vlan_id: 3002, name: decomposed('Café-B') },
      ],
    });
    expect(bulk.statusCode, bulk.body).toBe(201);
    expect(bulk.json().map((vlan: { name: string }) => vlan.name)).toEqual([
      composed('Café-A'),
      composed('Café-B'),
    ]);
    const batch = await ctx.as('admin', {
      method: 'PATCH',
      url: '/vlans',
      payload: [{ id: bulk.json()[0].id, name: decomposed('Café-C') }],
    });
    expect(batch.statusCode, batch.body).toBe(200);
    const vlan = await ctx.as('admin', { method: 'GET', url: `/vlans/${bulk.json()[0].id}` });
    expect(vlan.json().name).toBe(composed('Café-C'));
  });

  it("compose a webhook filter's names, which are matched byte for byte", async () => {
    const hook = await ctx.as('admin', {
      method: 'POST',
      url: '/webhooks',
      payload: {
        name: decomposed(accented('hook')),
        url: 'http://127.0.0.1:9/hook',
        filter: {
          hostname: decomposed('café-1'),
          name: [decomposed('Tür-1'), 'eth0'],
          model: decomposed('Modèle'),
        },
      },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    expect(hook.json().name).toBe(composed(hook.json().name));
    expect(hook.json().filter).toEqual({
      hostname: composed('café-1'),
      name: [composed('Tür-1'), 'eth0'],
      // Free text is stored as sent, and matched so.
      model: decomposed('Modèle'),
    });
  });

  it('refuse a second record named alike in the other form', async () => {
    const name = accented('nfc-unique');
    await create(ctx, 'devices', { hostname: decomposed(name), ip: '192.0.2.2' });
    const again = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: { hostname: composed(name), ip: '192.0.2.3' },
    });
    expect(again.statusCode, again.body).toBe(409);

    const device = await create(ctx, 'devices', { hostname: unique('nfc-ports'), ip: '192.0.2.4' });
    await create(ctx, 'interfaces', { device_id: device.id, name: composed('Tür-1') });
    const port = await ctx.as('admin', {
      method: 'POST',
      url: '/interfaces',
      payload: { device_id: device.id, name: decomposed('Tür-1') },
    });
    expect(port.statusCode, port.body).toBe(409);
  });

  it('are found by a filter given either form', async () => {
    const mine = unique('nfc-filter');
    const name = `${mine}-café-Ångström`;
    await create(ctx, 'devices', { hostname: composed(name), ip: '192.0.2.5' });
    const among = (query: string) => hostnames(`${query}&hostname__isw=${mine}`);
    for (const form of [composed(name), decomposed(name)]) {
      for (const query of [
        `hostname=${encodeURIComponent(form)}`,
        `hostname__in=${encodeURIComponent(`${form},nobody.example`)}`,
        `hostname__ie=${encodeURIComponent(form)}`,
        `hostname__ic=${encodeURIComponent(form.slice(-18))}`,
      ]) {
        expect(await among(query), query).toEqual([composed(name)]);
      }
      expect(await among(`hostname__n=${encodeURIComponent(form)}`)).toEqual([]);
      // `q` too: it reads names (composed) and free text (as sent) alike.
      expect(await among(`q=${encodeURIComponent(form.slice(-16))}`)).toEqual([composed(name)]);
    }
  });

  it('refuse a name that composing makes longer than its limit', async () => {
    // U+0958 (DEVANAGARI LETTER QA) is excluded from composition: NFC writes it as two characters.
    const grows = '\u0958'.repeat(200);
    expect([...composed(grows)].length).toBe(400);
    const refused = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: { hostname: grows, ip: '192.0.2.6' },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toMatch(/^hostname: must not have more than 255 characters/);
  });

  it('stored before are composed by the migration, without history, unless another record has the name', async () => {
    const single = accented('nfc-migrate');
    const pair = accented('nfc-pair');
    const one = await create(ctx, 'devices', { hostname: unique('nfc-m1'), ip: '192.0.2.7' });
    const taken = await create(ctx, 'devices', { hostname: composed(pair), ip: '192.0.2.8' });
    const lookalike = await create(ctx, 'devices', { hostname: unique('nfc-m2'), ip: '192.0.2.9' });
    // What a release from before stored: names as sent.
    await sql`UPDATE devices SET hostname = ${decomposed(single)} WHERE id = ${one.id}`.execute(
      ctx.store.db,
    );
    await sql`UPDATE devices SET hostname = ${decomposed(pair)} WHERE id = ${lookalike.id}`.execute(
      ctx.store.db,
    );
    const migration = await readFile(
      new URL('../src/db/migrations/036_names_in_one_unicode_form.sql', import.meta.url),
      'utf8',
    );
    await ctx.store.scriptTransaction((tx) => tx.exec(migration));

    const read = async (id: string) =>
      (await ctx.as('admin', { method: 'GET', url: `/devices/${id}` })).json().hostname;
    expect(await read(one.id)).toBe(composed(single));
    expect((await auditRowsOf(ctx, one.id)).length).toBe(1);
    // The look-alike pair stays as it was: each is found by its own form, and both by either.
    expect(await read(taken.id)).toBe(composed(pair));
    expect(await read(lookalike.id)).toBe(decomposed(pair));
    const both = [composed(pair), decomposed(pair)].sort();
    const matching = async (query: string) => (await hostnames(query)).sort();
    expect(await matching(`hostname=${encodeURIComponent(decomposed(pair))}`)).toEqual(both);
    expect(await matching(`hostname=${encodeURIComponent(composed(pair))}`)).toEqual([
      composed(pair),
    ]);
    expect(await matching(`hostname__ie=${encodeURIComponent(decomposed(pair))}`)).toEqual(both);
    expect(
      await matching(
        `hostname__ic=${encodeURIComponent(decomposed(pair).slice(-11))}&hostname__isw=nfc-pair`,
      ),
    ).toEqual(both);
    // "Is not" is the opposite of "is": neither of the pair.
    const others = await matching(
      `hostname__n=${encodeURIComponent(decomposed(pair))}&hostname__ic=nfc-pair`,
    );
    expect(others).toEqual([]);
    expect(
      await matching(`hostname__nic=${encodeURIComponent(decomposed(pair))}&hostname__ic=nfc-pair`),
    ).toEqual([]);
    // Renamed, it is stored composed like any name.
    const renamed = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${lookalike.id}`,
      payload: { hostname: decomposed(`${pair}-b`) },
    });
    expect(renamed.json().hostname).toBe(composed(`${pair}-b`));
  });

  it('stored before are composed per unique rule, webhook filters too; the ETag changes, updated_at is kept', async () => {
    const first = await create(ctx, 'devices', { hostname: unique('nfc-d1'), ip: '192.0.2.10' });
    const second = await create(ctx, 'devices', { hostname: unique('nfc-d2'), ip: '192.0.2.11' });
    const ports = [
      await create(ctx, 'interfaces', { device_id: first.id, name: unique('p') }),
      await create(ctx, 'interfaces', { device_id: second.id, name: unique('p') }),
    ];
    // Two names not composed that compose alike: the dot below and the circumflex in either order.
    const twins = [
      await create(ctx, 'locations', { name: unique('nfc-t1') }),
      await create(ctx, 'locations', { name: unique('nfc-t2') }),
    ];
    const twinName = (order: string) => `Hà Nội-${order}`;
    const hook = await ctx.as('admin', {
      method: 'POST',
      url: '/webhooks',
      payload: { name: unique('nfc-hook'), url: 'http://127.0.0.1:9/hook' },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const etagOf = async (url: string) =>
      (await ctx.as('admin', { method: 'GET', url })).headers.etag;
    const before = await etagOf(`/interfaces/${ports[0]?.id}`);
    const db = ctx.store.db;
    for (const port of ports) {
      await sql`UPDATE interfaces SET name = ${decomposed('Tür-1')} WHERE id = ${port.id}`.execute(
        db,
      );
    }
    await sql`UPDATE locations SET name = ${`${twinName('a')}\u0323\u0302`} WHERE id = ${twins[0]?.id}`.execute(
      db,
    );
    await sql`UPDATE locations SET name = ${`${twinName('a')}\u0302\u0323`} WHERE id = ${twins[1]?.id}`.execute(
      db,
    );
    await sql`UPDATE webhooks SET filter = ${JSON.stringify({ hostname: [decomposed('café-2')], status: 'active' })}::jsonb
      WHERE id = ${hook.json().id}`.execute(db);
    const migration = await readFile(
      new URL('../src/db/migrations/036_names_in_one_unicode_form.sql', import.meta.url),
      'utf8',
    );
    await ctx.store.scriptTransaction((tx) => tx.exec(migration));

    for (const port of ports) {
      const read = (await ctx.as('admin', { method: 'GET', url: `/interfaces/${port.id}` })).json();
      // The same name on two devices is no conflict: each is composed.
      expect(read.name).toBe(composed('Tür-1'));
      expect(read.updated_at).toBe(port.updated_at);
    }
    expect(await etagOf(`/interfaces/${ports[0]?.id}`)).not.toBe(before);
    const locationNames = await Promise.all(
      twins.map(
        async (twin) =>
          (await ctx.as('admin', { method: 'GET', url: `/locations/${twin.id}` })).json().name,
      ),
    );
    expect(locationNames).toEqual([`${twinName('a')}\u0323\u0302`, `${twinName('a')}\u0302\u0323`]);
    const filter = (
      await ctx.as('admin', { method: 'GET', url: `/webhooks/${hook.json().id}` })
    ).json().filter;
    expect(filter).toEqual({ hostname: [composed('café-2')], status: 'active' });
  });
});
