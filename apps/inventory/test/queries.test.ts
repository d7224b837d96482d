import type { TSchema } from 'typebox';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../src/audit/definition.js';
import { apiTokens } from '../src/auth/api-tokens-routes.js';
import type { AnyDatabase } from '../src/db/schema.js';
import { events } from '../src/events/definition.js';
import { matchesSchema } from '../src/http/validation.js';
import { RESOURCES } from '../src/resources/index.js';
import { kindOf, LOOKUPS, LOOKUPS_BY_KIND } from '../src/resources/lookups.js';
import { listQuerySchema } from '../src/resources/schemas.js';
import { users } from '../src/users/definition.js';
import { create, startTestApp, type TestContext } from './helpers.js';

/**
 * Query power on the generic mechanism: lookup expressions on every column kind
 * (checked against an oracle over the same rows), tags, search, field selection and keyset
 * cursors. Rows go in through the data layer where the API is not what is tested.
 */

let ctx: TestContext;
let db: AnyDatabase;

interface Device {
  id: string;
  hostname: string;
  ip: string;
  vendor: string | null;
  status: string;
  location_id: string | null;
  last_seen: string | null;
  serial_number: string | null;
  tags: string[];
}

const locationA = uuidv7();
const locationB = uuidv7();
let devices: Device[] = [];

const HOSTNAMES = [
  'core-sw-01',
  'Core-RTR-02',
  'edge-rtr-03',
  'EDGE-sw-04',
  'access_%_05',
  'access-x-06',
  'lab-core-07',
  'lab-08',
];
const VENDORS = ['Cisco', 'Juniper', null, 'Arista'];
const STATUSES = ['active', 'offline', 'maintenance', 'active'];
const TAGS = [['core', 'prod'], ['core'], ['edge', 'prod'], [], ['prod'], ['core', 'edge', 'prod']];

beforeAll(async () => {
  ctx = await startTestApp();
  db = ctx.store.db as AnyDatabase;
  await db
    .insertInto('locations')
    .values([
      { id: locationA, name: 'Paris' },
      { id: locationB, name: 'Lyon' },
    ])
    .execute();
  devices = HOSTNAMES.map((hostname, index) => ({
    id: uuidv7(),
    hostname,
    ip: `192.0.2.${index * 20 + 1}`,
    vendor: VENDORS[index % VENDORS.length] ?? null,
    status: STATUSES[index % STATUSES.length] ?? 'active',
    location_id: index % 3 === 0 ? null : index % 3 === 1 ? locationA : locationB,
    last_seen: index % 4 === 3 ? null : new Date(Date.UTC(2026, 0, 1 + index)).toISOString(),
    serial_number: index % 2 === 0 ? `SN-${1000 + index}` : null,
    tags: TAGS[index % TAGS.length] ?? [],
  }));
  await db.insertInto('devices').values(devices).execute();
});
afterAll(() => ctx?.close());

async function ids(url: string): Promise<string[]> {
  const response = await ctx.as('viewer', { method: 'GET', url });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response
    .json<{ data: Array<{ id: string }> }>()
    .data.map((row) => row.id)
    .sort();
}

const expected = (keep: (device: Device) => boolean) =>
  devices
    .filter(keep)
    .map((device) => device.id)
    .sort();

const lastOctet = (ip: string) => Number(ip.split('.')[3]);
const lower = (text: string | null) => text?.toLowerCase() ?? null;

describe('lookup expressions', () => {
  const at = (day: number) => new Date(Date.UTC(2026, 0, day)).toISOString();
  const cases: Array<[string, (device: Device) => boolean]> = [
    // text
    ['hostname=core-sw-01', (d) => d.hostname === 'core-sw-01'],
    ['hostname__n=core-sw-01', (d) => d.hostname !== 'core-sw-01'],
    [
      'hostname__in=core-sw-01,lab-08,nothing',
      (d) => ['core-sw-01', 'lab-08'].includes(d.hostname),
    ],
    ['hostname__ic=CORE', (d) => d.hostname.toLowerCase().includes('core')],
    ['hostname__nic=core', (d) => !d.hostname.toLowerCase().includes('core')],
    ['hostname__isw=edge', (d) => d.hostname.toLowerCase().startsWith('edge')],
    ['hostname__iew=-0', (d) => /-0$/.test(d.hostname)],
    ['hostname__iew=SW-04', (d) => d.hostname.toLowerCase().endsWith('sw-04')],
    ['hostname__ie=CORE-SW-01', (d) => d.hostname.toLowerCase() === 'core-sw-01'],
    // LIKE's wildcards match themselves only.
    ['hostname__ic=_%25_', (d) => d.hostname.includes('_%_')],
    ['hostname__ic=%25', (d) => d.hostname.includes('%')],
    ['hostname__lt=edge', (d) => d.hostname < 'edge'],
    ['hostname__gte=lab', (d) => d.hostname >= 'lab'],
    ['vendor__isnull=true', (d) => d.vendor === null],
    ['vendor__isnull=false', (d) => d.vendor !== null],
    ['vendor__n=Cisco', (d) => d.vendor !== 'Cisco'],
    ['vendor__in=Cisco,Juniper', (d) => d.vendor === 'Cisco' || d.vendor === 'Juniper'],
    ['vendor__nic=is', (d) => !lower(d.vendor)?.includes('is')],
    ['serial_number__isw=sn-100', (d) => lower(d.serial_number)?.startsWith('sn-100') === true],
    // enumeration
    ['status__n=active', (d) => d.status !== 'active'],
    ['status__in=offline,maintenance', (d) => ['offline', 'maintenance'].includes(d.status)],
    ['status__ic=LINE', (d) => d.status.includes('line')],
    ['status__isnull=false', () => true],
    // timestamp
    [`last_seen__lt=${at(3)}`, (d) => d.last_seen !== null && d.last_seen < at(3)],
    [`last_seen__lte=${at(3)}`, (d) => d.last_seen !== null && d.last_seen <= at(3)],
    [`last_seen__gt=${at(3)}`, (d) => d.last_seen !== null && d.last_seen > at(3)],
    [`last_seen__gte=${at(3)}`, (d) => d.last_seen !== null && d.last_seen >= at(3)],
    [`last_seen__n=${at(1)}`, (d) => d.last_seen !== at(1)],
    [`last_seen__in=${at(1)},${at(2)}`, (d) => d.last_seen === at(1) || d.last_seen === at(2)],
    ['last_seen__isnull=true', (d) => d.last_seen === null],
    // uuid
    [`location_id=${locationA}`, (d) => d.location_id === locationA],
    [`location_id__n=${locationA}`, (d) => d.location_id !== locationA],
    [`location_id__in=${locationA},${locationB}`, (d) => d.location_id !== null],
    ['location_id__isnull=true', (d) => d.location_id === null],
    // ip (inet orders numerically: .101 > .21)
    ['ip__gt=192.0.2.41', (d) => lastOctet(d.ip) > 41],
    ['ip__lte=192.0.2.41', (d) => lastOctet(d.ip) <= 41],
    ['ip__in=192.0.2.1,192.0.2.21', (d) => [1, 21].includes(lastOctet(d.ip))],
    ['ip__n=192.0.2.1', (d) => d.ip !== '192.0.2.1'],
    // combined with AND, and with search and tags
    [
      'hostname__ic=core&vendor__isnull=false',
      (d) => /core/i.test(d.hostname) && d.vendor !== null,
    ],
    ['q=EDGE', (d) => /edge/i.test(d.hostname)],
    ['q=sn-1002', (d) => d.serial_number === 'SN-1002'],
    ['q=192.0.2.10', (d) => d.ip.startsWith('192.0.2.10')],
    ['q=juni&status=offline', (d) => d.vendor === 'Juniper' && d.status === 'offline'],
    ['tags=core', (d) => d.tags.includes('core')],
    ['tags=core&tags=prod', (d) => d.tags.includes('core') && d.tags.includes('prod')],
    ['tags=core&hostname__ic=lab', (d) => d.tags.includes('core') && /lab/i.test(d.hostname)],
  ];

  it.each(cases)('?%s matches what the oracle says, with an exact total', async (query, keep) => {
    expect(await ids(`/devices?limit=100&${query}`)).toEqual(expected(keep));
    const response = await ctx.as('viewer', { method: 'GET', url: `/devices?limit=1&${query}` });
    expect(response.json().meta.total_count).toBe(expected(keep).length);
  });

  it('on integers and booleans too', async () => {
    const device = devices[0]?.id;
    for (const [name, mtu] of [
      ['eth0', 1500],
      ['eth1', 9000],
      ['eth2', null],
    ] as const) {
      await db
        .insertInto('interfaces')
        .values({ id: uuidv7(), device_id: device, name, mtu })
        .execute();
    }
    const names = async (query: string) => {
      const response = await ctx.as('viewer', { method: 'GET', url: `/interfaces?${query}` });
      expect(response.statusCode).toBe(200);
      return response
        .json<{ data: Array<{ name: string }> }>()
        .data.map((row) => row.name)
        .sort();
    };
    expect(await names('mtu__gt=1500')).toEqual(['eth1']);
    expect(await names('mtu__gte=1500')).toEqual(['eth0', 'eth1']);
    expect(await names('mtu__lt=9000')).toEqual(['eth0']);
    expect(await names('mtu__lte=9000')).toEqual(['eth0', 'eth1']);
    expect(await names('mtu__n=1500')).toEqual(['eth1', 'eth2']);
    expect(await names('mtu__in=1500,9000')).toEqual(['eth0', 'eth1']);
    expect(await names('mtu__isnull=true')).toEqual(['eth2']);

    const users = async (query: string) => {
      const response = await ctx.as('admin', { method: 'GET', url: `/users?${query}` });
      expect(response.statusCode).toBe(200);
      return response.json<{ meta: { total_count: number } }>().meta.total_count;
    };
    expect(await users('inactive_status__n=true')).toBe(3);
    expect(await users('inactive_status__isnull=false')).toBe(3);
    expect(await users('username__in=admin,viewer')).toBe(2);
  });

  it('follow one table from column kind to lookups, for every filterable column', () => {
    for (const definition of RESOURCES) {
      for (const column of Object.values(definition.columns)) {
        const allowed = LOOKUPS_BY_KIND[kindOf(column)];
        expect(allowed.every((lookup) => (LOOKUPS as readonly string[]).includes(lookup))).toBe(
          true,
        );
      }
    }
    expect(LOOKUPS_BY_KIND.uuid).not.toContain('lt');
    expect(LOOKUPS_BY_KIND.integer).not.toContain('ic');
  });

  it.each([
    ['location_id__lt=2026', 'location_id__lt'],
    ['vlan_id__gte=abc', 'vlan_id__gte'],
    ['vlan_id__ic=1', 'vlan_id__ic'],
    ['vlan_id__in=1,x', 'vlan_id__in'],
    ['name__foo=x', 'name__foo'],
    ['name__isnull=maybe', 'name__isnull'],
    ['tags__ic=core', 'tags__ic'],
    ['description__ic=x', 'description__ic'],
  ])('?%s is a 400 naming the parameter', async (query, parameter) => {
    const response = await ctx.as('viewer', { method: 'GET', url: `/vlans?${query}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(parameter);
  });

  it('refuses control characters in every text lookup, exact match included, as in __ic', async () => {
    const parameters = [
      'hostname',
      'vendor__n',
      'hostname__in',
      'hostname__lt',
      'vendor__gte',
      'hostname__ic',
      'hostname__ie',
      'status__n',
      'status__in',
      'mac_address',
    ];
    for (const parameter of parameters) {
      for (const value of ['%01', '%01x', 'a%7Fb', 'x%0Ay', 'a,%1Fb']) {
        const url = `/devices?${parameter}=${value}`;
        const response = await ctx.as('viewer', { method: 'GET', url });
        expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
        expect(response.json().message, url).toContain(parameter);
      }
    }
    // In CSV exports too (they take the same filters), and on nested lists.
    const csv = await ctx.as('viewer', { method: 'GET', url: '/devices?format=csv&vendor__n=%01' });
    expect(csv.statusCode).toBe(400);
    const text = await ctx.as('viewer', {
      method: 'GET',
      url: '/devices?hostname__in=a,b&vendor__n=x y',
    });
    expect(text.statusCode, text.body).toBe(200);
  });

  it('every filter and lookup of every list refuses a value with a control character', () => {
    for (const definition of [...RESOURCES, users, apiTokens, events, auditLogs]) {
      const schema = listQuerySchema(definition) as { properties: Record<string, TSchema> };
      for (const [name, property] of Object.entries(schema.properties)) {
        if (['page', 'limit', 'cursor', 'sortby', 'fields', 'brief', 'format'].includes(name))
          continue;
        const sample =
          (property as { type?: string }).type === 'string' ? ['\u0001', 'a\u007fb', 'x\ny'] : [];
        for (const value of sample) {
          expect(
            matchesSchema(property, value),
            `${definition.name} ${name} ${JSON.stringify(value)}`,
          ).toBe(false);
        }
      }
    }
  });

  it('types __in items like the column and bounds their number', async () => {
    const bad = await ctx.as('viewer', {
      method: 'GET',
      url: `/devices?location_id__in=${locationA},not-a-uuid`,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(
      'Invalid value in query parameter location_id__in: "not-a-uuid"',
    );
    const many = Array.from({ length: 101 }, (_, i) => `h${i}`).join(',');
    const tooMany = await ctx.as('viewer', { method: 'GET', url: `/devices?hostname__in=${many}` });
    expect(tooMany.statusCode).toBe(400);
  });

  it('id__in reads the records with those ids on every list, up to 100 ids', async () => {
    const ids = [locationA, locationB].sort();
    const found = await ctx.as('viewer', {
      method: 'GET',
      url: `/locations?id__in=${ids.join(',')},${uuidv7()}`,
    });
    expect(found.statusCode, found.body).toBe(200);
    expect(
      found
        .json()
        .data.map((row: { id: string }) => row.id)
        .sort(),
    ).toEqual(ids);
    const bad = await ctx.as('viewer', { method: 'GET', url: '/devices?id__in=x' });
    expect(bad.json().message).toBe('Invalid value in query parameter id__in: "x"');
    const many = Array.from({ length: 101 }, () => uuidv7()).join(',');
    const tooMany = await ctx.as('viewer', { method: 'GET', url: `/vlans?id__in=${many}` });
    expect(tooMany.statusCode, tooMany.body).toBe(400);
  });
});

describe('tags', () => {
  it('are written as a sorted set on create, PUT and PATCH, and validated', async () => {
    const device = await create(ctx, 'devices', {
      hostname: 'tagged-1',
      ip: '198.51.100.1',
      tags: ['prod', 'core', 'prod'],
    });
    expect(device.tags).toEqual(['core', 'prod']);
    const patched = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${device.id}`,
      payload: { tags: ['z', 'a'] },
    });
    expect(patched.json().tags).toEqual(['a', 'z']);
    const put = await ctx.as('admin', {
      method: 'PUT',
      url: `/devices/${device.id}`,
      payload: { hostname: 'tagged-1', ip: '198.51.100.1' },
    });
    expect(put.json().tags).toEqual([]);
    for (const tags of [['Upper'], ['a b'], [''], ['x'.repeat(65)], null]) {
      const response = await ctx.as('admin', {
        method: 'PATCH',
        url: `/devices/${device.id}`,
        payload: { tags },
      });
      expect(response.statusCode, JSON.stringify(tags)).toBe(400);
    }
    const tooMany = Array.from({ length: 51 }, (_, i) => `t${i}`);
    const response = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${device.id}`,
      payload: { tags: tooMany },
    });
    expect(response.statusCode).toBe(400);
    await ctx.as('admin', { method: 'DELETE', url: `/devices/${device.id}` });
  });

  it('batch PATCH adds and removes tags per record, atomically, without reading first', async () => {
    const a = await create(ctx, 'vlans', { vlan_id: 3001, name: 'a', tags: ['keep', 'old'] });
    const b = await create(ctx, 'vlans', { vlan_id: 3002, name: 'b' });
    const batch = await ctx.as('admin', {
      method: 'PATCH',
      url: '/vlans',
      payload: [
        { id: a.id, add_tags: ['new', 'keep'], remove_tags: ['old'] },
        { id: b.id, add_tags: ['new'], name: 'b2' },
      ],
    });
    expect(batch.statusCode, batch.body).toBe(200);
    const read = async (id: string) =>
      (await ctx.as('viewer', { method: 'GET', url: `/vlans/${id}` })).json();
    expect((await read(a.id)).tags).toEqual(['keep', 'new']);
    expect(await read(b.id)).toMatchObject({ name: 'b2', tags: ['new'] });

    const mixed = await ctx.as('admin', {
      method: 'PATCH',
      url: '/vlans',
      payload: [{ id: a.id, tags: ['x'], add_tags: ['y'] }],
    });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().message).toContain('Item 0');
    // All or nothing: an unknown id leaves the known one as it was.
    const partial = await ctx.as('admin', {
      method: 'PATCH',
      url: '/vlans',
      payload: [
        { id: a.id, add_tags: ['never'] },
        { id: uuidv7(), add_tags: ['never'] },
      ],
    });
    expect(partial.statusCode).toBe(404);
    expect((await read(a.id)).tags).toEqual(['keep', 'new']);
  });

  it('concurrent add and remove on one record both apply', async () => {
    const vlan = await create(ctx, 'vlans', { vlan_id: 3003, name: 'c', tags: ['base'] });
    const change = (payload: Record<string, unknown>) =>
      ctx.as('admin', { method: 'PATCH', url: '/vlans', payload: [{ id: vlan.id, ...payload }] });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0 ? change({ add_tags: [`t${i}`] }) : change({ remove_tags: ['base'] }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(10).fill(200));
    const read = await ctx.as('viewer', { method: 'GET', url: `/vlans/${vlan.id}` });
    expect(read.json().tags).toEqual(['t0', 't2', 't4', 't6', 't8']);
  });

  it('GET /tags counts each tag per resource, paged and sorted', async () => {
    await ctx.reset();
    await create(ctx, 'locations', { name: 'L', tags: ['prod'] });
    await create(ctx, 'devices', { hostname: 'd1', ip: '192.0.2.1', tags: ['core', 'prod'] });
    await create(ctx, 'devices', { hostname: 'd2', ip: '192.0.2.2', tags: ['prod'] });
    const first = await ctx.as('viewer', { method: 'GET', url: '/tags?sortby=count:desc&limit=1' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      meta: { current_page: 1, limit: 1, total_pages: 2, total_count: 2 },
      data: [
        { name: 'prod', count: 3, devices: 2, locations: 1, interfaces: 0, vlans: 0, links: 0 },
      ],
    });
    const second = await ctx.as('viewer', { method: 'GET', url: '/tags?page=2&limit=1' });
    expect(second.json().data.map((tag: { name: string }) => tag.name)).toEqual(['prod']);
    const bad = await ctx.as('viewer', { method: 'GET', url: '/tags?sortby=devices:asc' });
    expect(bad.statusCode).toBe(400);
    // Restore the shared rows.
    await ctx.reset();
    await db
      .insertInto('locations')
      .values([
        { id: locationA, name: 'Paris' },
        { id: locationB, name: 'Lyon' },
      ])
      .execute();
    await db.insertInto('devices').values(devices).execute();
  });
});

describe('field selection', () => {
  it('returns only the fields asked for, on lists and single reads', async () => {
    const list = await ctx.as('viewer', {
      method: 'GET',
      url: '/devices?fields=hostname,id&sortby=hostname:asc&limit=2',
    });
    expect(list.statusCode).toBe(200);
    const body = list.json();
    expect(Object.keys(body.data[0])).toEqual(['hostname', 'id']);
    expect(body.meta.total_count).toBe(devices.length);
    const one = devices[0] as Device;
    const read = await ctx.as('viewer', {
      method: 'GET',
      url: `/devices/${one.id}?fields=ip,tags`,
    });
    expect(read.json()).toEqual({ ip: one.ip, tags: one.tags });
    const brief = await ctx.as('viewer', { method: 'GET', url: `/devices/${one.id}?brief=true` });
    expect(brief.json()).toEqual({ id: one.id, hostname: one.hostname });
    const briefList = await ctx.as('viewer', { method: 'GET', url: '/devices?brief=true&limit=1' });
    expect(Object.keys(briefList.json().data[0])).toEqual(['id', 'hostname']);
  });

  it('is a 400 for an unknown field, or fields with brief', async () => {
    for (const url of [
      '/devices?fields=hostname,password_hash',
      '/devices?fields=',
      '/devices?fields=id&brief=true',
      `/devices/${devices[0]?.id}?fields=nope`,
    ]) {
      const response = await ctx.as('viewer', { method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
    }
  });
});

describe('keyset cursors', () => {
  async function walk(query: string, limit = 3) {
    const seen: string[] = [];
    let url = `/devices?limit=${limit}&${query}`;
    for (let guard = 0; guard < 50; guard++) {
      const response = await ctx.as('viewer', { method: 'GET', url });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{
        meta: { next_cursor: string | null; total_count: number; current_page: number | null };
        data: Array<{ id: string }>;
      }>();
      seen.push(...body.data.map((row) => row.id));
      if (body.meta.next_cursor === null) return seen;
      url = `/devices?limit=${limit}&${query}&cursor=${encodeURIComponent(body.meta.next_cursor)}`;
    }
    throw new Error('cursor walk did not end');
  }

  it.each([
    '',
    'sortby=hostname:desc',
    'sortby=vendor:asc',
    'sortby=vendor:desc',
    'sortby=last_seen:asc&sortby=status:desc',
    'sortby=created_at:desc',
    'sortby=serial_number:desc&sortby=hostname:asc',
    'tags=prod&sortby=vendor:asc',
  ])('walk every row once in the order of pages (?%s)', async (query) => {
    const all = await ctx.as('viewer', { method: 'GET', url: `/devices?limit=100&${query}` });
    const ordered = all.json<{ data: Array<{ id: string }> }>().data.map((row) => row.id);
    expect(await walk(query)).toEqual(ordered);
  });

  it('skip and repeat nothing when rows are added before the position', async () => {
    const first = await ctx.as('viewer', {
      method: 'GET',
      url: '/devices?limit=3&sortby=hostname:asc',
    });
    const page = first.json<{
      meta: { next_cursor: string };
      data: Array<{ id: string; hostname: string }>;
    }>();
    const before = await ctx.as('viewer', {
      method: 'GET',
      url: '/devices?limit=100&sortby=hostname:asc',
    });
    const rest = before
      .json<{ data: Array<{ id: string }> }>()
      .data.slice(3)
      .map((row) => row.id);
    // Rows sorting before the cursor's position (and one with the smallest possible id).
    const added = [
      { id: '00000000-0000-7000-8000-000000000001', hostname: '0-early', ip: '192.0.2.250' },
      { id: uuidv7(), hostname: '0-early-2', ip: '192.0.2.251' },
    ];
    await db.insertInto('devices').values(added).execute();
    let url = `/devices?limit=3&sortby=hostname:asc&cursor=${encodeURIComponent(page.meta.next_cursor)}`;
    const seen: string[] = [];
    for (;;) {
      const response = await ctx.as('viewer', { method: 'GET', url });
      const body = response.json<{
        meta: { next_cursor: string | null; current_page: null };
        data: Array<{ id: string }>;
      }>();
      expect(body.meta.current_page).toBeNull();
      seen.push(...body.data.map((row) => row.id));
      if (!body.meta.next_cursor) break;
      url = `/devices?limit=3&sortby=hostname:asc&cursor=${encodeURIComponent(body.meta.next_cursor)}`;
    }
    expect(seen).toEqual(rest);
    await db
      .deleteFrom('devices')
      .where(
        'id',
        'in',
        added.map((row) => row.id),
      )
      .execute();
  });

  it('are refused when tampered with, foreign, or mixed with page', async () => {
    const first = await ctx.as('viewer', {
      method: 'GET',
      url: '/devices?limit=2&sortby=hostname:asc',
    });
    const cursor = first.json<{ meta: { next_cursor: string } }>().meta.next_cursor;
    const [body = '', signature = ''] = cursor.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    payload.k[0] = 'a';
    const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
    const attempts: Array<[string, string]> = [
      [`/devices?limit=2&sortby=hostname:asc&cursor=${forged}`, 'Invalid cursor'],
      [`/devices?limit=2&sortby=hostname:asc&cursor=${body}`, 'Invalid cursor'],
      [`/devices?limit=2&sortby=hostname:asc&cursor=x.y.z`, 'Invalid cursor'],
      [`/devices?limit=2&sortby=hostname:desc&cursor=${cursor}`, 'Cursor does not belong'],
      [
        `/devices?limit=2&sortby=hostname:asc&vendor=Cisco&cursor=${cursor}`,
        'Cursor does not belong',
      ],
      [`/locations?limit=2&sortby=name:asc&cursor=${cursor}`, 'Cursor does not belong'],
      [`/devices?limit=2&sortby=hostname:asc&page=2&cursor=${cursor}`, 'either page or cursor'],
    ];
    for (const [url, message] of attempts) {
      const response = await ctx.as('viewer', { method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message).toContain(message);
    }
  });
});

describe('bulk create', () => {
  it('creates every item in order, or none, with one audit row each', async () => {
    const created = await ctx.as('admin', {
      method: 'POST',
      url: '/vlans',
      payload: [
        { vlan_id: 3501, name: 'bulk-a', tags: ['b', 'a'] },
        { vlan_id: 3502, name: 'bulk-b' },
        { vlan_id: 3503, name: 'bulk-c', status: 'active' },
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    const rows = created.json<Array<{ id: string; vlan_id: number; tags: string[] }>>();
    expect(rows.map((row) => row.vlan_id)).toEqual([3501, 3502, 3503]);
    expect(rows[0]?.tags).toEqual(['a', 'b']);
    expect(rows[1]?.tags).toEqual([]);
    const audit = await ctx.as('admin', {
      method: 'GET',
      url: '/audit-logs?resource_type=vlans&action=create&limit=100',
    });
    const audited = new Set(
      audit.json<{ data: Array<{ resource_id: string }> }>().data.map((row) => row.resource_id),
    );
    for (const row of rows) expect(audited.has(row.id)).toBe(true);
  });

  it('names the item and field of a clash or invalid value, and writes nothing', async () => {
    const count = async () =>
      (await ctx.as('viewer', { method: 'GET', url: '/vlans?vlan_id__gte=3600' })).json().meta
        .total_count;
    const clash = await ctx.as('admin', {
      method: 'POST',
      url: '/vlans',
      payload: [
        { vlan_id: 3601, name: 'x' },
        { vlan_id: 3602, name: 'y' },
        { vlan_id: 3601, name: 'z' },
      ],
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe('Item 2 (vlan_id): VLAN id already exists');
    const invalid = await ctx.as('admin', {
      method: 'POST',
      url: '/vlans',
      payload: [
        { vlan_id: 3603, name: 'ok' },
        { vlan_id: 9999, name: 'bad' },
      ],
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toBe('Item 1 (vlan_id): must be <= 4094');
    const dangling = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: [
        { hostname: 'bulk-ok', ip: '192.0.2.9' },
        { hostname: 'bulk-dangling', ip: '192.0.2.9', location_id: uuidv7() },
      ],
    });
    expect(dangling.statusCode).toBe(400);
    expect(dangling.json().message).toMatch(/^Item 1 \(location_id\): Location not found$/);
    for (const payload of [
      [],
      Array.from({ length: 1001 }, (_, i) => ({ vlan_id: 1 + i, name: 'n' })),
    ]) {
      const response = await ctx.as('admin', { method: 'POST', url: '/vlans', payload });
      expect(response.statusCode).toBe(400);
    }
    expect(await count()).toBe(0);
  });
});

describe('the OpenAPI document', () => {
  it('describes lookups, tags, search, cursors, fields, CSV and bulk create', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const list = document.paths['/devices'].get;
    const names = list.parameters.map((parameter: { name: string }) => parameter.name);
    // Lookups are the properties of one form-exploded parameter: each is sent as its own.
    const lookupsOf = (parameters: Array<{ name: string; schema: { properties: object } }>) =>
      Object.keys(
        parameters.find((parameter) => parameter.name === 'lookups')?.schema.properties ?? {},
      );
    const lookups = lookupsOf(list.parameters);
    expect(lookups).toContain('hostname__ic');
    expect(lookups).toContain('location_id__isnull');
    expect(lookups).not.toContain('location_id__lt');
    expect(lookupsOf(document.paths['/vlans'].get.parameters)).toContain('vlan_id__gte');
    for (const name of ['hostname', 'tags', 'q', 'cursor', 'fields', 'brief', 'format']) {
      expect(names, name).toContain(name);
    }
    const meta = list.responses['200'].content['application/json'].schema.properties.meta;
    expect(Object.keys(meta.properties)).toContain('next_cursor');
    const body = document.paths['/devices'].post.requestBody.content['application/json'].schema;
    expect(body.anyOf.map((branch: { type: string }) => branch.type).sort()).toEqual([
      'array',
      'object',
    ]);
    expect(document.paths['/tags'].get).toBeDefined();
  });
});
