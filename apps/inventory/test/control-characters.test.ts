import { describe, expect, it } from 'vitest';
import { apiTokens } from '../src/auth/api-tokens-routes.js';
import { events } from '../src/events/definition.js';
import { matchesSchema } from '../src/http/validation.js';
import { RESOURCES } from '../src/resources/index.js';
import { fullRecordSchema, partialRecordSchema } from '../src/resources/schemas.js';
import { users } from '../src/users/definition.js';
import { create, unique, useTestApp } from './helpers.js';

/**
 * Stored text holds no control character (U+0000 to U+001F, U+007F), as no filter value may:
 * `core-1\n` beside `core-1` could never be found by its exact value. Only a column declared
 * `multiline` (a description, an address, an event's message) keeps line feeds, carriage returns
 * and tabs, and refuses the other control characters.
 */
const ctx = useTestApp();

const CONTROL_REFUSED = 'must not contain control characters (U+0000 to U+001F, U+007F)';
const MULTILINE_REFUSED =
  'must not contain control characters other than line feeds, carriage returns and tabs';

describe('stored text refuses the control characters filters refuse', () => {
  it.each([
    ['/devices', { hostname: 'core-1\n', ip: '192.0.2.1' }, 'hostname'],
    ['/devices', { hostname: 'core-2', ip: '192.0.2.1', vendor: 'Cis\u0000co' }, 'vendor'],
    ['/locations', { name: 'dc\t1' }, 'name'],
    ['/vlans', { vlan_id: 77, name: 'v77', status: 'active\u007f' }, 'status'],
    ['/events', { severity: 'info', type: 'link\rdown', message: 'm' }, 'type'],
  ])('POST %s with a control character in %j', async (url, payload, field) => {
    const response = await ctx.as('admin', { method: 'POST', url, payload });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      status: 'error',
      message: `body/${field} ${CONTROL_REFUSED}`,
    });
  });

  it('PATCH, PUT, a JSON array and a batch name the field too', async () => {
    const device = await create(ctx, 'devices', { hostname: unique('ctl'), ip: '192.0.2.1' });
    const patch = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${device.id}`,
      payload: { model: 'x\u001b[31m' },
    });
    expect(patch.json()).toEqual({ status: 'error', message: `body/model ${CONTROL_REFUSED}` });
    const put = await ctx.as('admin', {
      method: 'PUT',
      url: `/devices/${device.id}`,
      payload: { hostname: 'a\u0001', ip: '192.0.2.1' },
    });
    expect(put.json()).toEqual({ status: 'error', message: `body/hostname ${CONTROL_REFUSED}` });
    const array = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: [
        { hostname: unique('ctl'), ip: '192.0.2.1' },
        { hostname: 'b\n', ip: '192.0.2.1' },
      ],
    });
    expect(array.json()).toEqual({
      status: 'error',
      message: `Item 1 (hostname): ${CONTROL_REFUSED}`,
    });
    const batch = await ctx.as('admin', {
      method: 'PATCH',
      url: '/devices',
      payload: [{ id: device.id, os: 'ios\n' }],
    });
    expect(batch.json()).toEqual({ status: 'error', message: `Item 0 (os): ${CONTROL_REFUSED}` });
  });

  it('a CSV import is checked the same way, naming the row', async () => {
    const response = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      headers: { 'content-type': 'text/csv' },
      payload: `hostname,ip\n${unique('ok')},192.0.2.1\n"bad\nname",192.0.2.2\n`,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      status: 'error',
      message: `Row 3 (hostname): ${CONTROL_REFUSED}`,
    });
  });

  it('a multiline column keeps line breaks and tabs, and refuses the other control characters', async () => {
    const location = await create(ctx, 'locations', {
      name: unique('loc'),
      address: 'Main Street 1\r\n1000 Town\tCountry',
    });
    expect(location.address).toBe('Main Street 1\r\n1000 Town\tCountry');
    const device = await create(ctx, 'devices', { hostname: unique('ml'), ip: '192.0.2.1' });
    const described = await create(ctx, 'interfaces', {
      device_id: device.id,
      name: 'eth0',
      description: 'uplink\nto core',
    });
    expect(described.description).toBe('uplink\nto core');
    const refused = await ctx.as('admin', {
      method: 'PATCH',
      url: `/interfaces/${described.id}`,
      payload: { description: 'bell\u0007' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      status: 'error',
      message: `body/description ${MULTILINE_REFUSED}`,
    });
  });

  it('every string column of every resource refuses a control character', () => {
    for (const definition of [...RESOURCES, users, apiTokens, events]) {
      const full = fullRecordSchema(definition) as { properties: Record<string, object> };
      const partial = partialRecordSchema(definition) as { properties: Record<string, object> };
      for (const [name, column] of Object.entries(definition.columns)) {
        if (column.readOnly || (column.schema as { type?: unknown }).type !== 'string') continue;
        for (const schema of [full.properties[name], partial.properties[name]]) {
          expect(schema, `${definition.name}.${name}`).toBeDefined();
          for (const control of ['\u0000', '\u0001', '\u001f', '\u007f']) {
            expect(
              matchesSchema(schema as object, `https://a${control}b.example/x`),
              `${definition.name}.${name} with U+${control.charCodeAt(0).toString(16)}`,
            ).toBe(false);
          }
          if (!column.multiline) {
            expect(matchesSchema(schema as object, 'a\nb'), `${definition.name}.${name}`).toBe(
              false,
            );
          }
        }
      }
    }
  });
});
