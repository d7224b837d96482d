import { beforeAll, describe, expect, it } from 'vitest';
import { create, useTestApp } from './helpers.js';

/**
 * A query string is text; a parameter typed integer takes plain decimal digits (a leading minus
 * allowed) and a boolean one the spellings clients send: `true`/`false`, Python's
 * `True`/`False` (requests writes a bool so, as pynetbox's `brief=True`), `1`/`0`. JavaScript's
 * number syntax is not a query's: `vlan_id=0x10` found VLAN 16 and `limit=1e2` was a limit.
 */
const ctx = useTestApp();

const get = (url: string) => ctx.as('admin', { method: 'GET', url });

describe('integers and booleans in a query string', () => {
  beforeAll(async () => {
    await create(ctx, 'vlans', { vlan_id: 16, name: 'sixteen' });
  });

  it.each(['True', 'true', '1', 'False', 'false', '0'])('brief=%s is a boolean', async (value) => {
    const response = await get(`/vlans?brief=${value}`);
    expect(response.statusCode, response.body).toBe(200);
    const fields = Object.keys(response.json().data[0] ?? {}).sort();
    expect(fields).toEqual(
      ['True', 'true', '1'].includes(value)
        ? ['id', 'name', 'vlan_id']
        : expect.arrayContaining(['description']),
    );
  });

  it.each(['yes', 'TRUE', 'on', '2', '', 't'])('brief=%s is refused', async (value) => {
    const response = await get(`/vlans?brief=${value}`);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      status: 'error',
      message: 'querystring/brief must be boolean',
    });
  });

  it('an isnull lookup and a boolean filter take the same spellings', async () => {
    expect((await get('/devices?location_id__isnull=True')).statusCode).toBe(200);
    expect((await get('/webhooks?enabled=0')).statusCode).toBe(200);
  });

  it.each([
    ['vlan_id', '0x10'],
    ['vlan_id', '1e1'],
    ['vlan_id', '+16'],
    ['vlan_id', '016'],
    ['vlan_id', '16.0'],
    ['vlan_id', ' 16'],
    ['vlan_id', '16 '],
    ['vlan_id', '0b10000'],
    ['vlan_id', '0o20'],
    ['vlan_id', 'Infinity'],
    ['vlan_id__gte', '1_0'],
    ['limit', '1e2'],
    ['limit', '+10'],
    ['limit', '010'],
    ['limit', '10.0'],
    ['page', '0x1'],
  ])('%s=%s is refused', async (name, value) => {
    const response = await get(`/vlans?${name}=${encodeURIComponent(value)}`);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      status: 'error',
      message: `querystring/${name} must be integer`,
    });
  });

  it.each(['016', '0x10', '1e1', '+16'])(
    'an integer in a list, vlan_id__in=%s, is refused',
    async (value) => {
      const response = await get(`/vlans?vlan_id__in=${encodeURIComponent(`1,${value}`)}`);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toBe(
        `Invalid value in query parameter vlan_id__in: ${JSON.stringify(value)}`,
      );
    },
  );

  it('plain decimal digits are integers, a minus sign included where the range allows it', async () => {
    expect((await get('/vlans?vlan_id=16')).json().data).toHaveLength(1);
    expect((await get('/vlans?limit=10&page=1')).statusCode).toBe(200);
    expect((await get('/vlans?vlan_id=0')).json()).toEqual({
      status: 'error',
      message: 'querystring/vlan_id must be >= 1',
    });
    expect((await get('/vlans?vlan_id__gte=-1')).json().message).toBe(
      'querystring/vlan_id__gte must be >= 1',
    );
  });
});
