import { beforeAll, describe, expect, it } from 'vitest';
import { create, unique, useTestApp } from './helpers.js';

/**
 * An interface's speed is "a number followed by Gbps": its range lookups compare the number
 * (`speed__gte=2Gbps` finds 2.5, 10 and 100 Gbps), not the text, in which `100Gbps` < `2Gbps`.
 */
const ctx = useTestApp();

const SPEEDS = ['1Gbps', '2.5Gbps', '10Gbps', '100Gbps'];
let deviceId: string;

beforeAll(async () => {
  const device = await create(ctx, 'devices', { hostname: unique('speed'), ip: '192.0.2.1' });
  deviceId = device.id;
  for (const [index, speed] of SPEEDS.entries()) {
    await create(ctx, 'interfaces', { device_id: device.id, name: `eth${index}`, speed });
  }
});

const speedsOf = async (query: string) => {
  const response = await ctx.as('admin', {
    method: 'GET',
    url: `/interfaces?device_id=${deviceId}&sortby=speed_mbps:asc&${query}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.map((row: { speed: string }) => row.speed);
};

describe('range lookups on speed compare the number', () => {
  it.each([
    ['speed__gte=2Gbps', ['2.5Gbps', '10Gbps', '100Gbps']],
    ['speed__gt=10Gbps', ['100Gbps']],
    ['speed__lt=10Gbps', ['1Gbps', '2.5Gbps']],
    ['speed__lte=2.5Gbps', ['1Gbps', '2.5Gbps']],
    ['speed__gte=2.50Gbps&speed__lte=10.0Gbps', ['2.5Gbps', '10Gbps']],
  ])('%s', async (query, expected) => {
    expect(await speedsOf(query)).toEqual(expected);
  });

  it('in the nested count and the CSV export too', async () => {
    const count = await ctx.as('admin', {
      method: 'GET',
      url: `/devices/${deviceId}/interfacecount?speed__gte=2Gbps`,
    });
    expect(count.json().count).toBe(3);
    const csv = await ctx.as('admin', {
      method: 'GET',
      url: `/interfaces?device_id=${deviceId}&speed__gt=2Gbps&format=csv&fields=speed&sortby=speed_mbps:asc`,
    });
    expect(csv.body.trim().split(/\r?\n/)).toEqual(['speed', '2.5Gbps', '10Gbps', '100Gbps']);
  });

  it('a value that is no speed is refused', async () => {
    const response = await ctx.as('admin', { method: 'GET', url: '/interfaces?speed__gte=fast' });
    expect(response.statusCode).toBe(400);
  });
});
