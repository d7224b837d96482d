import { describe, expect, it } from 'vitest';
import { create, unique, useTestApp } from './helpers.js';

/**
 * Only a create and a batch update read a CSV body: every other route of a resource answers a
 * text/csv body with 415, as it answers any body that is not JSON, instead of reading the file's
 * rows as records (`PATCH /devices/{id}` said `Row 2 (hostname): is required`).
 */
const ctx = useTestApp();

const csv = { 'content-type': 'text/csv' };

describe('text/csv bodies', () => {
  it('are 415 on every route but the create and the batch update', async () => {
    const device = await create(ctx, 'devices', { hostname: unique('csv'), ip: '192.0.2.1' });
    const payload = 'hostname,ip\nx,192.0.2.9\n';
    for (const [method, url] of [
      ['PATCH', `/devices/${device.id}`],
      ['PUT', `/devices/${device.id}`],
      ['DELETE', '/devices'],
      ['PATCH', `/webhooks/${device.id}`],
    ] as const) {
      const response = await ctx.as('admin', { method, url, headers: csv, payload });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(415);
      expect(response.json(), `${method} ${url}`).toEqual({
        status: 'error',
        message:
          'Unsupported media type: text/csv is read only by a create (POST to the list) and a batch update (PATCH to the list)',
      });
    }
    const read = await ctx.as('admin', { method: 'GET', url: `/devices/${device.id}` });
    expect(read.json().hostname).toBe(device.hostname);
  });

  it('are read by the create', async () => {
    const response = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      headers: csv,
      payload: `hostname,ip\n${unique('csv')},192.0.2.9\n`,
    });
    expect(response.statusCode, response.body).toBe(201);
  });
});
