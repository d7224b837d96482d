import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers.js';

/**
 * A write refuses a query parameter it does not document, as a read does (`Unknown query
 * parameter: …`): `POST /devices?dry_run=true` must not create the device the client asked only
 * to check. Every write route of the API, found in the route catalogue.
 */
const ctx = useTestApp();

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SOME_ID = '00000000-0000-4000-8000-000000000000';

describe('write routes and their query string', () => {
  it('every write route refuses an unknown query parameter with 400 naming it', async () => {
    const writes = ctx.app.routeCatalogue.filter(
      (route) => WRITE_METHODS.has(route.method) && !route.url.startsWith('/ui'),
    );
    expect(writes.length).toBeGreaterThan(20);
    for (const route of writes) {
      const path = route.url.replace(/:[A-Za-z_]+/g, SOME_ID);
      const response = await ctx.as('admin', {
        method: route.method as 'POST',
        url: `${path}?dry_run=true`,
      });
      expect(response.statusCode, `${route.method} ${route.url}: ${response.body}`).toBe(400);
      expect(response.json(), `${route.method} ${route.url}`).toEqual({
        status: 'error',
        message: 'Unknown query parameter: dry_run',
      });
    }
  });

  it('nothing is written: POST /devices?dry_run=true with a valid body', async () => {
    const response = await ctx.as('admin', {
      method: 'POST',
      url: '/devices?dry_run=true',
      payload: { hostname: 'dry-run-1', ip: '192.0.2.1' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Unknown query parameter: dry_run');
    const list = await ctx.as('admin', { method: 'GET', url: '/devices?hostname=dry-run-1' });
    expect(list.json().meta.total_count).toBe(0);
  });

  it('a write without a query string, or with an empty one, is served', async () => {
    for (const url of ['/devices', '/devices?']) {
      const response = await ctx.as('admin', {
        method: 'POST',
        url,
        payload: { hostname: `plain-${url.length}`, ip: '192.0.2.1' },
      });
      expect(response.statusCode, url).toBe(201);
    }
  });
});
