import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RESOURCES } from '../src/resources/index.js';
import { create, deviceWithInterfaces, startTestApp, type TestContext, unique } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());
beforeEach(() => ctx.reset());

const UNKNOWN_ID = '01900000-0000-7000-8000-000000000000';
let vlanNumber = 100;

/** For each resource: a valid new record (parents created as needed) and a partial change. */
const fixtures: Record<
  string,
  { payload(): Promise<Record<string, unknown>>; patch: Record<string, unknown> }
> = {
  locations: {
    payload: async () => ({ name: unique('site'), city: 'Berlin', country: 'DE' }),
    patch: { city: 'Hamburg' },
  },
  devices: {
    payload: async () => ({
      hostname: unique('router'),
      ip: '10.1.1.1',
      vendor: 'Cisco',
      status: 'maintenance',
    }),
    patch: { status: 'offline' },
  },
  interfaces: {
    payload: async () => {
      const { device } = await deviceWithInterfaces(ctx, 0);
      return {
        device_id: device.id,
        name: unique('ge'),
        speed: '10Gbps',
        mac_address: 'aa:bb:cc:dd:ee:ff',
        ip_address: '2001:db8::1',
        status: 'up',
      };
    },
    patch: { oper_status: 'down' },
  },
  vlans: {
    payload: async () => ({ vlan_id: ++vlanNumber, name: unique('vlan') }),
    patch: { status: 'reserved' },
  },
  links: {
    payload: async () => {
      const { interfaces } = await deviceWithInterfaces(ctx, 2);
      return {
        a_interface_id: interfaces[0]?.id,
        b_interface_id: interfaces[1]?.id,
        type: 'fiber',
      };
    },
    patch: { status: 'down' },
  },
  // A literal public address: the default policy refuses private targets, and no DNS is needed.
  webhooks: {
    payload: async () => ({ name: unique('hook'), url: 'http://93.184.215.14/hook' }),
    patch: { enabled: false },
  },
};

async function auditRows(resourceId: string) {
  return ctx.store.db
    .selectFrom('audit_logs')
    .selectAll()
    .where('resource_id', '=', resourceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

describe.each(RESOURCES.map((definition) => [definition.name, definition] as const))(
  '%s: the generic endpoints',
  (name, definition) => {
    const fixture = fixtures[name];
    if (!fixture) throw new Error(`no fixture for ${name}`);
    const url = `/${name}`;
    // The least role that reads it: a viewer, unless the resource declares its readers.
    const reader = definition.readRoles?.[definition.readRoles.length - 1] ?? 'viewer';

    it('creates (201, stored record), reads it back, and audits the creation', async () => {
      const payload = await fixture.payload();
      const response = await ctx.as('admin', { method: 'POST', url, payload });
      expect(response.statusCode).toBe(201);
      const created = response.json();
      expect(created).toMatchObject(payload);
      expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Date(created.created_at).getTime()).not.toBeNaN();

      const read = await ctx.as(reader, { method: 'GET', url: `${url}/${created.id}` });
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(created);

      const [audit] = await auditRows(created.id);
      expect(audit).toMatchObject({
        action: 'create',
        resource_type: name,
        username: 'admin',
        client_ip: '127.0.0.1',
      });
      expect(audit?.user_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(audit?.request_id).toBeTruthy();
      // Migration 012: the record as created, and each field set as [old, new].
      expect(audit?.prechange).toBeNull();
      expect(audit?.postchange).toEqual(created);
      expect(audit?.changes).toMatchObject(
        Object.fromEntries(Object.entries(payload).map(([field, value]) => [field, [null, value]])),
      );
    });

    it('replaces with PUT (same id; absent optional fields reset) and patches with PATCH', async () => {
      const created = await create(ctx, name, await fixture.payload());
      const required = Object.fromEntries(
        Object.entries(definition.columns)
          .filter(([, column]) => column.required)
          .map(([column]) => [column, created[column]]),
      );
      const put = await ctx.as('admin', {
        method: 'PUT',
        url: `${url}/${created.id}`,
        payload: required,
      });
      expect(put.statusCode).toBe(200);
      const replaced = put.json();
      expect(replaced.id).toBe(created.id);
      for (const [column, spec] of Object.entries(definition.columns)) {
        if (!spec.required && !spec.secret) expect(replaced[column]).toEqual(spec.default ?? null);
      }

      const patch = await ctx.as('admin', {
        method: 'PATCH',
        url: `${url}/${created.id}`,
        payload: fixture.patch,
      });
      expect(patch.statusCode).toBe(200);
      expect(patch.json()).toMatchObject({
        ...replaced,
        ...fixture.patch,
        updated_at: expect.any(String),
      });
      const reread = await ctx.as('admin', { method: 'GET', url: `${url}/${created.id}` });
      expect(reread.json()).toEqual(patch.json());
      expect((await auditRows(created.id)).map((row) => row.action)).toEqual([
        'create',
        'replace',
        'update',
      ]);
    });

    it('deletes (204) and then answers 404 with its not-found message', async () => {
      const created = await create(ctx, name, await fixture.payload());
      const removed = await ctx.as('admin', { method: 'DELETE', url: `${url}/${created.id}` });
      expect(removed.statusCode).toBe(204);
      expect(removed.body).toBe('');
      for (const method of ['GET', 'DELETE', 'PATCH', 'PUT'] as const) {
        const response = await ctx.as('admin', {
          method,
          url: `${url}/${created.id}`,
          ...(method === 'PATCH' ? { payload: fixture.patch } : {}),
          ...(method === 'PUT' ? { payload: await fixture.payload() } : {}),
        });
        expect(response.statusCode, method).toBe(404);
        expect(response.json()).toEqual({ status: 'error', message: definition.notFoundMessage });
      }
    });

    it('rejects a malformed id, unknown body fields and an empty PATCH with 400', async () => {
      const bad = await ctx.as('admin', { method: 'GET', url: `${url}/not-a-uuid` });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain('id');

      const payload = { ...(await fixture.payload()), color: 'blue' };
      const unknown = await ctx.as('admin', { method: 'POST', url, payload });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual({ status: 'error', message: 'Unknown body field: color' });

      const empty = await ctx.as('admin', {
        method: 'PATCH',
        url: `${url}/${UNKNOWN_ID}`,
        payload: {},
      });
      expect(empty.statusCode).toBe(400);
    });

    it('batch PATCH changes every item in one go, or none when an id is unknown', async () => {
      const first = await create(ctx, name, await fixture.payload());
      const second = await create(ctx, name, await fixture.payload());
      const ok = await ctx.as('admin', {
        method: 'PATCH',
        url,
        payload: [first, second].map((record) => ({ id: record.id, ...fixture.patch })),
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ status: 'success', count: 2 });
      for (const record of [first, second]) {
        const read = await ctx.as('admin', { method: 'GET', url: `${url}/${record.id}` });
        expect(read.json()).toMatchObject(fixture.patch);
      }

      const third = await create(ctx, name, await fixture.payload());
      const failed = await ctx.as('admin', {
        method: 'PATCH',
        url,
        payload: [
          { id: third.id, ...fixture.patch },
          { id: UNKNOWN_ID, ...fixture.patch },
        ],
      });
      expect(failed.statusCode).toBe(404);
      expect(failed.json().message).toBe(`${definition.notFoundMessage}: ${UNKNOWN_ID}`);
      const untouched = await ctx.as('admin', { method: 'GET', url: `${url}/${third.id}` });
      expect(untouched.json()).toEqual(third);

      const invalidItem = await ctx.as('admin', {
        method: 'PATCH',
        url,
        payload: [{ id: third.id, ...fixture.patch }, { id: 'nope' }],
      });
      expect(invalidItem.statusCode).toBe(400);
      const empty = await ctx.as('admin', { method: 'PATCH', url, payload: [] });
      expect(empty.statusCode).toBe(400);
    });

    it('batch DELETE removes every id, or none when one is unknown', async () => {
      const records = [
        await create(ctx, name, await fixture.payload()),
        await create(ctx, name, await fixture.payload()),
      ];
      const failed = await ctx.as('admin', {
        method: 'DELETE',
        url,
        payload: [records[0]?.id, UNKNOWN_ID],
      });
      expect(failed.statusCode).toBe(404);
      expect(failed.json().message).toBe(`${definition.notFoundMessage}: ${UNKNOWN_ID}`);
      const stillThere = await ctx.as('admin', { method: 'GET', url: `${url}/${records[0]?.id}` });
      expect(stillThere.statusCode).toBe(200);

      const ok = await ctx.as('admin', {
        method: 'DELETE',
        url,
        payload: records.map((r) => r.id),
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ status: 'success', count: 2 });
      const gone = await ctx.as('admin', { method: 'GET', url: `${url}/${records[1]?.id}` });
      expect(gone.statusCode).toBe(404);
      expect((await auditRows(records[1]?.id ?? '')).map((row) => row.action)).toEqual([
        'create',
        'delete',
      ]);

      const empty = await ctx.as('admin', { method: 'DELETE', url, payload: [] });
      expect(empty.statusCode).toBe(400);
      const malformed = await ctx.as('admin', { method: 'DELETE', url, payload: ['x'] });
      expect(malformed.statusCode).toBe(400);
    });
  },
);

describe('devices', () => {
  it('rejects an invalid IP with the spec message and accepts IPv6', async () => {
    const bad = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: { hostname: 'x', ip: '999.1.1.1' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ status: 'error', message: 'Invalid IP address format' });
    const v6 = await create(ctx, 'devices', { hostname: 'v6', ip: '2001:db8::10' });
    expect(v6.ip).toBe('2001:db8::10');
    expect(v6.status).toBe('active');
  });

  it('answers 409 naming the field on a duplicate hostname or serial number', async () => {
    await create(ctx, 'devices', { hostname: 'core1', ip: '10.0.0.1', serial_number: 'SN1' });
    const hostname = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: { hostname: 'core1', ip: '10.0.0.2' },
    });
    expect(hostname.statusCode).toBe(409);
    expect(hostname.json().message).toBe('Hostname already exists');
    const serial = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: { hostname: 'core2', ip: '10.0.0.2', serial_number: 'SN1' },
    });
    expect(serial.statusCode).toBe(409);
    expect(serial.json().message).toBe('Serial number already exists');
    // Several devices without a serial number are fine.
    await create(ctx, 'devices', { hostname: 'core3', ip: '10.0.0.3' });
    await create(ctx, 'devices', { hostname: 'core4', ip: '10.0.0.4' });
  });

  it('rejects a status outside the lifecycle and a location that does not exist', async () => {
    const status = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: { hostname: 'a', ip: '10.0.0.1', status: 'broken' },
    });
    expect(status.statusCode).toBe(400);
    expect(status.json().message).toContain('status');
    const location = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: { hostname: 'a', ip: '10.0.0.1', location_id: UNKNOWN_ID },
    });
    expect(location.statusCode).toBe(400);
    expect(location.json().message).toBe('location_id: Location not found');
  });

  it('deleting a device deletes its interfaces and their links', async () => {
    const { device, interfaces } = await deviceWithInterfaces(ctx, 2);
    const other = await deviceWithInterfaces(ctx, 1);
    const link = await create(ctx, 'links', {
      a_interface_id: interfaces[0]?.id,
      b_interface_id: other.interfaces[0]?.id,
    });
    await ctx.as('admin', { method: 'DELETE', url: `/devices/${device.id}` });
    for (const iface of interfaces) {
      expect(
        (await ctx.as('admin', { method: 'GET', url: `/interfaces/${iface.id}` })).statusCode,
      ).toBe(404);
    }
    expect((await ctx.as('admin', { method: 'GET', url: `/links/${link.id}` })).statusCode).toBe(
      404,
    );
    const survivor = await ctx.as('admin', {
      method: 'GET',
      url: `/interfaces/${other.interfaces[0]?.id}`,
    });
    expect(survivor.statusCode).toBe(200);
  });

  it('lists and counts a device’s interfaces, 404 for an unknown device', async () => {
    const { device } = await deviceWithInterfaces(ctx, 3);
    await deviceWithInterfaces(ctx, 2);
    const list = await ctx.as('viewer', {
      method: 'GET',
      url: `/devices/${device.id}/interfaces?limit=2&sortby=name:desc`,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().meta).toEqual({
      current_page: 1,
      limit: 2,
      total_pages: 2,
      total_count: 3,
      next_cursor: expect.any(String),
    });
    expect(list.json().data.map((row: { name: string }) => row.name)).toEqual(['eth2', 'eth1']);
    const count = await ctx.as('viewer', {
      method: 'GET',
      url: `/devices/${device.id}/interfacecount`,
    });
    expect(count.json()).toEqual({ status: 'success', count: 3 });
    for (const path of ['interfaces', 'interfacecount']) {
      const missing = await ctx.as('viewer', {
        method: 'GET',
        url: `/devices/${UNKNOWN_ID}/${path}`,
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe('Device not found');
    }
  });

  it('counts what the nested list would total, with its filters; anything else is 400', async () => {
    const { device, interfaces } = await deviceWithInterfaces(ctx, 3);
    await ctx.as('admin', {
      method: 'PATCH',
      url: `/interfaces/${interfaces[0]?.id}`,
      payload: { oper_status: 'up', tags: ['uplink'] },
    });
    const site = await create(ctx, 'locations', { name: unique('count-site') });
    for (const [index, status] of ['active', 'active', 'offline'].entries()) {
      await create(ctx, 'devices', {
        hostname: unique('counted'),
        ip: `192.0.2.${50 + index}`,
        status,
        location_id: site.id,
      });
    }
    const cases: Array<[string, number]> = [
      [`/devices/${device.id}/interfacecount?oper_status=up`, 1],
      [`/devices/${device.id}/interfacecount?name__in=eth1,eth2`, 2],
      [`/devices/${device.id}/interfacecount?tags=uplink`, 1],
      [`/devices/${device.id}/interfacecount?q=eth`, 3],
      [`/locations/${site.id}/devicescount?status=active`, 2],
      [`/locations/${site.id}/devicescount?status__n=active`, 1],
      [`/locations/${site.id}/devicescount`, 3],
    ];
    for (const [url, expected] of cases) {
      const count = await ctx.as('viewer', { method: 'GET', url });
      expect(count.statusCode, `${url}: ${count.body}`).toBe(200);
      expect(count.json(), url).toEqual({ status: 'success', count: expected });
      const list = await ctx.as('viewer', {
        method: 'GET',
        url: url.replace('interfacecount', 'interfaces').replace('devicescount', 'devices'),
      });
      expect(list.json().meta.total_count, url).toBe(expected);
    }
    const refused: Array<[string, string]> = [
      [`/devices/${device.id}/interfacecount?nope=1`, 'Unknown query parameter: nope'],
      [`/devices/${device.id}/interfacecount?limit=abc`, 'Unknown query parameter: limit'],
      [
        `/devices/${device.id}/interfacecount?device_id=${device.id}`,
        'Unknown query parameter: device_id',
      ],
      [`/locations/${site.id}/devicescount?status=broken`, 'querystring/status'],
    ];
    for (const [url, message] of refused) {
      const count = await ctx.as('viewer', { method: 'GET', url });
      expect(count.statusCode, url).toBe(400);
      expect(count.json().message, url).toContain(message);
    }
  });
});

describe('interfaces', () => {
  it('keeps names unique per device only', async () => {
    const { device } = await deviceWithInterfaces(ctx, 1);
    const clash = await ctx.as('admin', {
      method: 'POST',
      url: '/interfaces',
      payload: { device_id: device.id, name: 'eth0' },
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe('Interface name already exists on this device');
    const other = await deviceWithInterfaces(ctx, 1);
    expect(other.interfaces[0]?.name).toBe('eth0');
  });

  it('validates MAC, speed and IP, and derives speed_mbps from speed', async () => {
    const { device } = await deviceWithInterfaces(ctx, 0);
    for (const [field, value] of [
      ['mac_address', 'aa-bb-cc-dd-ee-ff'],
      ['speed', '10 gigs'],
      ['ip_address', '10.0.0.300'],
      ['mtu', 0],
    ] as const) {
      const response = await ctx.as('admin', {
        method: 'POST',
        url: '/interfaces',
        payload: { device_id: device.id, name: 'x', [field]: value },
      });
      expect(response.statusCode, field).toBe(400);
      expect(response.json().message).toMatch(
        field === 'ip_address' ? /Invalid IP address format/ : new RegExp(field),
      );
    }
    const created = await create(ctx, 'interfaces', {
      device_id: device.id,
      name: 'x',
      speed: '2.5Gbps',
    });
    expect(created.speed_mbps).toBe(2500);
  });

  it('needs an existing device', async () => {
    const response = await ctx.as('admin', {
      method: 'POST',
      url: '/interfaces',
      payload: { device_id: UNKNOWN_ID, name: 'x' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('device_id: Device not found');
  });
});

describe('locations', () => {
  it('deleting a location keeps its devices with a null location_id', async () => {
    const site = await create(ctx, 'locations', { name: 'DC1' });
    const device = await create(ctx, 'devices', {
      hostname: 'r1',
      ip: '10.0.0.1',
      location_id: site.id,
    });
    const count = await ctx.as('viewer', {
      method: 'GET',
      url: `/locations/${site.id}/devicescount`,
    });
    expect(count.json()).toEqual({ status: 'success', count: 1 });
    const list = await ctx.as('viewer', { method: 'GET', url: `/locations/${site.id}/devices` });
    expect(list.json().data.map((row: { id: string }) => row.id)).toEqual([device.id]);

    expect(
      (await ctx.as('admin', { method: 'DELETE', url: `/locations/${site.id}` })).statusCode,
    ).toBe(204);
    const after = await ctx.as('admin', { method: 'GET', url: `/devices/${device.id}` });
    expect(after.statusCode).toBe(200);
    expect(after.json().location_id).toBeNull();
    const gone = await ctx.as('viewer', {
      method: 'GET',
      url: `/locations/${site.id}/devicescount`,
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('Location not found');
  });

  it('answers 409 on a duplicate name', async () => {
    await create(ctx, 'locations', { name: 'DC1' });
    const clash = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      payload: { name: 'DC1' },
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe('Location name already exists');
  });
});

describe('vlans', () => {
  it('accepts 1 to 4094 only, naming the field', async () => {
    for (const vlan_id of [0, 4095, 5000, 1.5]) {
      const response = await ctx.as('admin', {
        method: 'POST',
        url: '/vlans',
        payload: { vlan_id, name: 'v' },
      });
      expect(response.statusCode, String(vlan_id)).toBe(400);
      expect(response.json().message).toContain('vlan_id');
    }
    expect((await create(ctx, 'vlans', { vlan_id: 4094, name: 'top' })).vlan_id).toBe(4094);
    const missingName = await ctx.as('admin', {
      method: 'POST',
      url: '/vlans',
      payload: { vlan_id: 7 },
    });
    expect(missingName.statusCode).toBe(400);
    expect(missingName.json().message).toBe('Missing required body field: name');
  });

  it('answers 409 on a duplicate VLAN number', async () => {
    await create(ctx, 'vlans', { vlan_id: 10, name: 'a' });
    const clash = await ctx.as('admin', {
      method: 'POST',
      url: '/vlans',
      payload: { vlan_id: 10, name: 'b' },
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe('VLAN id already exists');
  });
});

describe('links', () => {
  it('needs two different existing interfaces, one link per pair in either order', async () => {
    const { interfaces } = await deviceWithInterfaces(ctx, 2);
    const [a, b] = interfaces.map((iface) => iface.id);
    const same = await ctx.as('editor', {
      method: 'POST',
      url: '/links',
      payload: { a_interface_id: a, b_interface_id: a },
    });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('A link needs two different interfaces');
    const dangling = await ctx.as('editor', {
      method: 'POST',
      url: '/links',
      payload: { a_interface_id: a, b_interface_id: UNKNOWN_ID },
    });
    expect(dangling.statusCode).toBe(400);
    expect(dangling.json().message).toBe('b_interface_id: Interface not found');

    const link = await ctx.as('editor', {
      method: 'POST',
      url: '/links',
      payload: { a_interface_id: a, b_interface_id: b },
    });
    expect(link.statusCode).toBe(201);
    expect(link.json().status).toBe('up');
    const reversed = await ctx.as('editor', {
      method: 'POST',
      url: '/links',
      payload: { a_interface_id: b, b_interface_id: a },
    });
    expect(reversed.statusCode).toBe(409);
    expect(reversed.json().message).toBe('A link between these two interfaces already exists');
  });
});
