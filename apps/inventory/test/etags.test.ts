import { testDatabaseUrl } from '@netops/store/testing';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseTagCondition } from '../src/resources/etags.js';
import { RESOURCES } from '../src/resources/index.js';
import { create, deviceWithInterfaces, makeUser, unique, useTestApp } from './helpers.js';

/**
 * Safe concurrent edits: a strong ETag on single-record reads and writes, If-Match on
 * PUT/PATCH/DELETE (412, nothing changed), If-None-Match on reads (304), batch PATCH items'
 * `etag`. On both stores; the races need PostgreSQL's concurrent connections to mean anything,
 * and on the embedded store (one connection) they show the same outcome serially.
 */

const ctx = useTestApp();
beforeEach(() => ctx.reset());

const STRONG = /^"[0-9]+"$/;

async function newVlan(number: number) {
  return create(ctx, 'vlans', { vlan_id: number, name: unique('vlan') });
}

async function read(url: string, headers: Record<string, string> = {}) {
  // Webhooks are read by admins only (README, Webhooks); everything else by any role.
  const role = url.startsWith('/webhooks/') ? 'admin' : 'viewer';
  return ctx.as(role, { method: 'GET', url, headers });
}

async function historyLength(resource: string, id: string) {
  const response = await ctx.as('admin', { method: 'GET', url: `/${resource}/${id}/history` });
  return response.json().meta.total_count as number;
}

describe('ETag', () => {
  it.each(RESOURCES.map((definition) => definition.name))(
    '%s: a create, a read and a write answer a strong ETag that changes with each change',
    async (name) => {
      // Each resource through the same mechanism: a record made of what the resource needs.
      const payloads: Record<string, () => Promise<Record<string, unknown>>> = {
        locations: async () => ({ name: unique('site') }),
        devices: async () => ({ hostname: unique('dev'), ip: '192.0.2.1' }),
        interfaces: async () => ({
          device_id: (await deviceWithInterfaces(ctx, 0)).device.id,
          name: 'eth0',
        }),
        vlans: async () => ({ vlan_id: 10, name: 'v' }),
        links: async () => {
          const { interfaces } = await deviceWithInterfaces(ctx, 2);
          return { a_interface_id: interfaces[0]?.id, b_interface_id: interfaces[1]?.id };
        },
        webhooks: async () => ({ name: unique('hook'), url: 'http://93.184.215.14/hook' }),
      };
      const patches: Record<string, Record<string, unknown>> = {
        locations: { city: 'Oslo' },
        devices: { vendor: 'x' },
        interfaces: { mtu: 9000 },
        vlans: { status: 'x' },
        links: { type: 'copper' },
        webhooks: { enabled: false },
      };
      const payload = await payloads[name]?.();
      const created = await ctx.as('admin', { method: 'POST', url: `/${name}`, payload });
      expect(created.statusCode).toBe(201);
      const createdTag = created.headers.etag as string;
      expect(createdTag).toMatch(STRONG);
      expect(created.json()).not.toHaveProperty('__etag');
      const url = `/${name}/${created.json().id}`;

      const first = await read(url);
      expect(first.headers.etag).toBe(createdTag);
      expect(first.json()).not.toHaveProperty('__etag');

      const patched = await ctx.as('admin', {
        method: 'PATCH',
        url,
        headers: { 'if-match': createdTag },
        payload: patches[name],
      });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.headers.etag).toMatch(STRONG);
      expect(patched.headers.etag).not.toBe(createdTag);
      expect(patched.json()).not.toHaveProperty('__etag');
      expect((await read(url)).headers.etag).toBe(patched.headers.etag);

      const stale = await ctx.as('admin', {
        method: 'DELETE',
        url,
        headers: { 'if-match': createdTag },
      });
      expect(stale.statusCode).toBe(412);
      const deleted = await ctx.as('admin', {
        method: 'DELETE',
        url,
        headers: { 'if-match': patched.headers.etag as string },
      });
      expect(deleted.statusCode).toBe(204);
    },
  );

  it('a browser script on an allowed origin may read it (CORS)', async () => {
    const vlan = await newVlan(21);
    const response = await read(`/vlans/${vlan.id}`, { origin: 'http://localhost:5173' });
    expect(response.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(String(response.headers['access-control-expose-headers'])).toContain('etag');
  });

  it('a projection (fields, brief) answers the weak form of the same tag', async () => {
    const vlan = await newVlan(20);
    const full = await read(`/vlans/${vlan.id}`);
    const brief = await read(`/vlans/${vlan.id}?fields=name`);
    expect(brief.headers.etag).toBe(`W/${full.headers.etag}`);
    // A weak tag is never a precondition for a write (strong comparison).
    const write = await ctx.as('admin', {
      method: 'PATCH',
      url: `/vlans/${vlan.id}`,
      headers: { 'if-match': brief.headers.etag as string },
      payload: { name: 'w' },
    });
    expect(write.statusCode).toBe(412);
  });

  it('a cascade changes the tag: a device whose location was deleted', async () => {
    const location = await create(ctx, 'locations', { name: unique('site') });
    const device = await create(ctx, 'devices', {
      hostname: unique('dev'),
      ip: '192.0.2.1',
      location_id: location.id,
    });
    const before = (await read(`/devices/${device.id}`)).headers.etag as string;
    await ctx.as('admin', { method: 'DELETE', url: `/locations/${location.id}` });
    const after = await read(`/devices/${device.id}`, { 'if-none-match': before });
    expect(after.statusCode).toBe(200);
    expect(after.json().location_id).toBeNull();
    expect(after.headers.etag).not.toBe(before);
  });
});

describe('If-None-Match', () => {
  it('304 without a body for the current tag (in a list, or *), 200 otherwise', async () => {
    const vlan = await newVlan(30);
    const url = `/vlans/${vlan.id}`;
    const tag = (await read(url)).headers.etag as string;
    for (const value of [tag, `W/${tag}`, `"1", ${tag}`, '*']) {
      const response = await read(url, { 'if-none-match': value });
      expect(response.statusCode, value).toBe(304);
      expect(response.body).toBe('');
      expect(response.headers.etag).toBe(tag);
      // RFC 9110 §8.6, §15.4.5: no Content-Length but the 200's, no body's Content-Type.
      expect(response.headers['content-length'], value).toBeUndefined();
      expect(response.headers['content-type'], value).toBeUndefined();
    }
    expect((await read(url, { 'if-none-match': '"1"' })).statusCode).toBe(200);
    expect(
      (await read(`/vlans/01900000-0000-7000-8000-000000000000`, { 'if-none-match': '*' }))
        .statusCode,
    ).toBe(404);
  });
});

describe('If-Match', () => {
  it('a stale tag: 412 in the error shape, nothing changed, no audit row', async () => {
    const vlan = await newVlan(40);
    const url = `/vlans/${vlan.id}`;
    const tag = (await read(url)).headers.etag as string;
    await ctx.as('admin', { method: 'PATCH', url, payload: { name: 'moved-on' } });
    for (const request of [
      { method: 'PATCH', payload: { name: 'lost-update' } },
      { method: 'PUT', payload: { vlan_id: 40, name: 'lost-update' } },
      { method: 'DELETE' },
    ] as const) {
      const response = await ctx.as('admin', { ...request, url, headers: { 'if-match': tag } });
      expect(response.statusCode, request.method).toBe(412);
      expect(response.json()).toEqual({
        status: 'error',
        message:
          'Precondition failed: the vlans record has changed since its ETag was read (nothing was changed)',
      });
    }
    expect((await read(url)).json().name).toBe('moved-on');
    expect(await historyLength('vlans', vlan.id)).toBe(2);
  });

  it('a matching tag in a list or *: written; an unknown record stays 404', async () => {
    const vlan = await newVlan(41);
    const url = `/vlans/${vlan.id}`;
    const tag = (await read(url)).headers.etag as string;
    const listed = await ctx.as('admin', {
      method: 'PATCH',
      url,
      headers: { 'if-match': `"1", W/"2", ${tag}` },
      payload: { name: 'a' },
    });
    expect(listed.statusCode).toBe(200);
    const any = await ctx.as('admin', {
      method: 'PATCH',
      url,
      headers: { 'if-match': '*' },
      payload: { name: 'b' },
    });
    expect(any.statusCode).toBe(200);
    const unknown = await ctx.as('admin', {
      method: 'PATCH',
      url: '/vlans/01900000-0000-7000-8000-000000000000',
      headers: { 'if-match': tag },
      payload: { name: 'c' },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('malformed headers: 400 naming the header', async () => {
    const vlan = await newVlan(42);
    // The last, over 4,096 characters, was answered with the validator's own wording.
    for (const value of [
      'abc',
      '"unterminated',
      '"a" "b"',
      'W/abc',
      ',',
      '"a",x',
      `"${'a'.repeat(4200)}"`,
    ]) {
      const response = await ctx.as('admin', {
        method: 'PATCH',
        url: `/vlans/${vlan.id}`,
        headers: { 'if-match': value },
        payload: { name: 'x' },
      });
      expect(response.statusCode, value).toBe(400);
      expect(response.json().message).toMatch(/^Invalid If-Match header/);
    }
    const long = await read(`/vlans/${vlan.id}`, { 'if-none-match': `"${'a'.repeat(4200)}"` });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('Invalid If-None-Match header: longer than 4096 characters');
    expect((await read(`/vlans/${vlan.id}`, { 'if-none-match': 'nope' })).statusCode).toBe(400);
  });

  it('racing clients with the same tag: exactly one wins, the others get 412', async () => {
    const vlan = await newVlan(43);
    const url = `/vlans/${vlan.id}`;
    const tag = (await read(url)).headers.etag as string;
    const racers = 8;
    const responses = await Promise.all(
      Array.from({ length: racers }, (_, index) =>
        ctx.as('admin', {
          method: index % 2 === 0 ? 'PATCH' : 'PUT',
          url,
          headers: { 'if-match': tag },
          payload: { vlan_id: 43, name: `racer-${index}` },
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, ...Array(racers - 1).fill(412)]);
    const winner = responses.find((response) => response.statusCode === 200);
    expect((await read(url)).json().name).toBe(winner?.json().name);
    expect(await historyLength('vlans', vlan.id)).toBe(2);
  });
});

/**
 * Racers that have all passed any check made before their write: a transaction holds the row
 * (FOR UPDATE: a lock, not a change, so the tag stays), the requests are sent and seen waiting
 * for it in pg_stat_activity, then it commits. A check made apart from the write would let every
 * racer through; the write's own WHERE, evaluated again on the winner's version, lets one.
 */
async function raceOnHeldRow(
  table: string,
  ids: readonly string[],
  send: () => Promise<Array<{ statusCode: number }>>,
): Promise<number[]> {
  let sent: Promise<Array<{ statusCode: number }>> | undefined;
  await ctx.store.db.transaction().execute(async (trx) => {
    await sql`SELECT 1 FROM ${sql.table(table)} WHERE id = ANY(${ids}::uuid[]) FOR UPDATE`.execute(
      trx,
    );
    sent = send();
    for (let attempt = 0; attempt < 200; attempt++) {
      const { rows } = await sql<{ waiting: number }>`
        SELECT count(*)::int AS waiting FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(ctx.store.db);
      if ((rows[0]?.waiting ?? 0) >= 4) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the racers never waited for the held row');
  });
  const responses = (await sent) ?? [];
  return responses.map((response) => response.statusCode).sort();
}

describe.runIf(testDatabaseUrl() !== undefined)(
  'racing writers held at the row lock (PostgreSQL)',
  () => {
    it('four PATCH/PUT/DELETE with the same If-Match: exactly one wins, in every round', async () => {
      const rounds = 5;
      const tally: Record<string, number> = {};
      for (let round = 0; round < rounds; round++) {
        const vlan = await newVlan(700 + round);
        const url = `/vlans/${vlan.id}`;
        const tag = (await read(url)).headers.etag as string;
        const methods = ['PATCH', 'PUT', 'PATCH', 'DELETE'];
        let deleted = false;
        const statuses = await raceOnHeldRow('vlans', [vlan.id], () =>
          Promise.all(
            methods.map((method, index) =>
              ctx.as('admin', {
                method: method as 'PATCH',
                url,
                headers: { 'if-match': tag },
                ...(method === 'DELETE'
                  ? {}
                  : { payload: { vlan_id: 700 + round, name: `held-${index}` } }),
              }),
            ),
          ),
        );
        for (const status of statuses) tally[status] = (tally[status] ?? 0) + 1;
        deleted = statuses.includes(204);
        const where = `round ${round}: ${statuses}`;
        expect(
          statuses.filter((status) => status < 300),
          where,
        ).toHaveLength(1);
        // The losers: 412, or 404 when the winner was the DELETE (the record is gone).
        expect(
          statuses.filter((status) => status === (deleted ? 404 : 412)),
          where,
        ).toHaveLength(3);
        // The winner's change alone is in the history (one create, one change).
        expect(await historyLength('vlans', vlan.id)).toBe(2);
      }
      console.log(
        `[inventory-etags] ${rounds} rounds of 4 writers held at the row lock with one If-Match: ${JSON.stringify(tally)}`,
      );
    });

    it('four batch PATCH with the same etags: exactly one wins', async () => {
      const vlans = [await newVlan(71), await newVlan(72)];
      const tags = await Promise.all(
        vlans.map(async (vlan) => (await read(`/vlans/${vlan.id}`)).headers.etag as string),
      );
      const statuses = await raceOnHeldRow(
        'vlans',
        vlans.map((vlan) => vlan.id),
        () =>
          Promise.all(
            [0, 1, 2, 3].map((racer) =>
              ctx.as('admin', {
                method: 'PATCH',
                url: '/vlans',
                payload: vlans.map((vlan, index) => ({
                  id: vlan.id,
                  etag: tags[index],
                  name: `held-${racer}`,
                })),
              }),
            ),
          ),
      );
      expect(statuses).toEqual([200, 412, 412, 412]);
    });
  },
);

describe('batch PATCH etag', () => {
  it('current tags: written; one stale item: 412 naming it, nothing written', async () => {
    const vlans = [await newVlan(50), await newVlan(51), await newVlan(52)];
    const tags = await Promise.all(
      vlans.map(async (vlan) => (await read(`/vlans/${vlan.id}`)).headers.etag as string),
    );
    const ok = await ctx.as('admin', {
      method: 'PATCH',
      url: '/vlans',
      payload: vlans.map((vlan, index) => ({ id: vlan.id, etag: tags[index], status: 'one' })),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    // tags are now all stale; refresh two of three.
    const fresh = await Promise.all(
      vlans.map(async (vlan) => (await read(`/vlans/${vlan.id}`)).headers.etag as string),
    );
    const stale = await ctx.as('admin', {
      method: 'PATCH',
      url: '/vlans',
      payload: [
        { id: vlans[0]?.id, etag: fresh[0], status: 'two' },
        { id: vlans[1]?.id, etag: tags[1], status: 'two' },
        { id: vlans[2]?.id, status: 'two' },
      ],
    });
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toEqual({
      status: 'error',
      message: `Precondition failed: vlans ${vlans[1]?.id} has changed since its etag was read (nothing was changed)`,
    });
    for (const vlan of vlans) {
      expect((await read(`/vlans/${vlan.id}`)).json().status).toBe('one');
    }
    const invalid = await ctx.as('admin', {
      method: 'PATCH',
      url: '/vlans',
      payload: [{ id: vlans[0]?.id, etag: 'no quotes', status: 'x' }],
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toBe(
      'Item 0 (etag): invalid etag: expected an ETag such as "123"',
    );
  });

  it('two batches racing with the same tags: exactly one wins', async () => {
    const vlans = [await newVlan(60), await newVlan(61)];
    const tags = await Promise.all(
      vlans.map(async (vlan) => (await read(`/vlans/${vlan.id}`)).headers.etag as string),
    );
    const responses = await Promise.all(
      [0, 1, 2, 3].map((racer) =>
        ctx.as('admin', {
          method: 'PATCH',
          url: '/vlans',
          payload: vlans.map((vlan, index) => ({
            id: vlan.id,
            etag: tags[index],
            name: `racer-${racer}`,
          })),
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 412, 412, 412]);
  });
});

describe('parseTagCondition', () => {
  it('reads lists with empty elements, commas inside tags, and refuses the rest', () => {
    expect(parseTagCondition('If-Match', ' "a,b" , ,W/"c"')).toEqual({
      any: false,
      tags: [
        { weak: false, opaque: 'a,b' },
        { weak: true, opaque: 'c' },
      ],
    });
    expect(parseTagCondition('If-Match', undefined)).toBeUndefined();
    expect(parseTagCondition('If-Match', ' * ')).toEqual({ any: true });
    expect(() => parseTagCondition('If-Match', `${'"a",'.repeat(65)}`)).toThrow(/more than 64/);
    expect(() => parseTagCondition('If-Match', '"\u0001"')).toThrow(/Invalid If-Match/);
  });
});

/**
 * Accounts, API tokens and events are served by the same resource routes as the inventory, so
 * they answer ETags and honour If-Match and If-None-Match like every record (their own rules,
 * write hooks, come on top).
 */
describe('ETag on accounts, API tokens and events', () => {
  it('users: a stale If-Match on PUT or DELETE is 412 and changes nothing', async () => {
    const created = await ctx.as('admin', {
      method: 'POST',
      url: '/users',
      payload: {
        username: unique('etag-user'),
        email: `${unique('e')}@example.test`,
        password: 'long-enough-1',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const createdTag = created.headers.etag as string;
    expect(createdTag).toMatch(STRONG);
    expect(created.json()).not.toHaveProperty('password_hash');
    const url = `/users/${created.json().id}`;
    const read = await ctx.as('admin', { method: 'GET', url });
    expect(read.headers.etag).toBe(createdTag);
    const notModified = await ctx.as('admin', {
      method: 'GET',
      url,
      headers: { 'if-none-match': createdTag },
    });
    expect(notModified.statusCode).toBe(304);

    const changed = await ctx.as('admin', {
      method: 'PUT',
      url,
      headers: { 'if-match': createdTag },
      payload: { role: 'editor' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const changedTag = changed.headers.etag as string;
    expect(changedTag).toMatch(STRONG);
    expect(changedTag).not.toBe(createdTag);

    const stalePut = await ctx.as('admin', {
      method: 'PUT',
      url,
      headers: { 'if-match': createdTag },
      payload: { role: 'viewer' },
    });
    expect(stalePut.statusCode, stalePut.body).toBe(412);
    const staleDelete = await ctx.as('admin', {
      method: 'DELETE',
      url,
      headers: { 'if-match': createdTag },
    });
    expect(staleDelete.statusCode).toBe(412);
    const after = await ctx.as('admin', { method: 'GET', url });
    expect(after.json().role).toBe('editor');
    expect(after.headers.etag).toBe(changedTag);

    const deleted = await ctx.as('admin', {
      method: 'DELETE',
      url,
      headers: { 'if-match': changedTag },
    });
    expect(deleted.statusCode).toBe(204);
  });

  it('users: an owner sending back only their role answers the current tag, and 412 when stale', async () => {
    const owner = await makeUser(ctx, 'editor', 'etag-owner');
    const headers = { authorization: `Bearer ${owner.token}` };
    const url = `/users/${owner.id}`;
    const current = await ctx.app.inject({ method: 'GET', url, headers });
    const tag = current.headers.etag as string;
    const same = await ctx.app.inject({
      method: 'PUT',
      url,
      headers: { ...headers, 'if-match': tag },
      payload: { role: 'editor' },
    });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.headers.etag).toBe(tag);
    const stale = await ctx.app.inject({
      method: 'PUT',
      url,
      headers: { ...headers, 'if-match': '"1"' },
      payload: { role: 'editor' },
    });
    expect(stale.statusCode, stale.body).toBe(412);
  });

  it('API tokens: the create answers the token once and a tag; a stale If-Match keeps it alive', async () => {
    const created = await ctx.as('admin', {
      method: 'POST',
      url: '/api-tokens',
      payload: { name: unique('etag-token'), scopes: ['events:read'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const tag = created.headers.etag as string;
    expect(tag).toMatch(STRONG);
    const { id, token } = created.json();
    expect(token).toMatch(/^nit_/);
    const url = `/api-tokens/${id}`;
    const read = await ctx.as('admin', { method: 'GET', url });
    expect(read.headers.etag).toBe(tag);
    expect(read.json()).not.toHaveProperty('token');

    const stale = await ctx.as('admin', { method: 'DELETE', url, headers: { 'if-match': '"1"' } });
    expect(stale.statusCode).toBe(412);
    const used = await ctx.app.inject({
      method: 'GET',
      url: '/events',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(used.statusCode).toBe(200);
    // Its use wrote last_used_at: a new version, so the tag read before is stale too.
    const current = (await ctx.as('admin', { method: 'GET', url })).headers.etag as string;
    const revoked = await ctx.as('admin', {
      method: 'DELETE',
      url,
      headers: { 'if-match': current },
    });
    expect(revoked.statusCode).toBe(204);
  });

  it('events: the create and a read answer the same tag; If-None-Match gives 304', async () => {
    const created = await ctx.as('editor', {
      method: 'POST',
      url: '/events',
      payload: { severity: 'info', type: 'etag', message: 'tagged' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const tag = created.headers.etag as string;
    expect(tag).toMatch(STRONG);
    const url = `/events/${created.json().id}`;
    expect((await read(url)).headers.etag).toBe(tag);
    expect((await read(url, { 'if-none-match': tag })).statusCode).toBe(304);
  });
});
