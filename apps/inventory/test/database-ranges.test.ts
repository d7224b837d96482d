import { describe, expect, it } from 'vitest';
import { create, unique, useTestApp } from './helpers.js';

/**
 * A value the request's schema accepts is one PostgreSQL stores as sent: timestamps within
 * years 1 to 9999 (UTC) with an offset PostgreSQL takes (at most ±15:59) and no leap second,
 * uuids in their plain 8-4-4-4-12 form. Anything else is a 400 naming the field, from the
 * schema, never the database's nameless `Invalid value`.
 */
const ctx = useTestApp();

const DATE_TIME_REFUSED = 'must match format "date-time"';

describe('values PostgreSQL would refuse are refused by the schema, naming the field', () => {
  it.each([
    '0000-01-01T00:00:00Z',
    '2026-01-01T00:00:00+23:59',
    '2026-01-01T00:00:00-16:00',
    '0001-01-01T00:00:00+01:00',
    '9999-12-31T23:59:59.999-01:00',
    '2030-06-30T23:59:60Z',
  ])('last_seen %s', async (last_seen) => {
    const response = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: { hostname: unique('range'), ip: '192.0.2.1', last_seen },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      status: 'error',
      message: `body/last_seen ${DATE_TIME_REFUSED}`,
    });
    const filtered = await ctx.as('admin', {
      method: 'GET',
      url: `/devices?last_seen__gte=${encodeURIComponent(last_seen)}`,
    });
    expect(filtered.statusCode, filtered.body).toBe(400);
    expect(filtered.json().message).toContain('last_seen__gte');
  });

  it.each([
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ['2026-01-01T00:00:00+15:59', '2025-12-31T08:01:00.000Z'],
    ['2026-01-01T00:00:00-05:30', '2026-01-01T05:30:00.000Z'],
  ])('last_seen %s is stored', async (last_seen, stored) => {
    const device = await create(ctx, 'devices', {
      hostname: unique('range'),
      ip: '192.0.2.1',
      last_seen,
    });
    expect(device.last_seen).toBe(stored);
  });

  it('an API token expiring at a leap second is refused by the schema', async () => {
    const response = await ctx.as('admin', {
      method: 'POST',
      url: '/api-tokens',
      payload: {
        name: unique('tok'),
        scopes: ['events:write'],
        expires_at: '2030-06-30T23:59:60Z',
      },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toBe(`body/expires_at ${DATE_TIME_REFUSED}`);
  });

  it('a uuid as a URN is refused in paths, filters and bodies', async () => {
    const device = await create(ctx, 'devices', { hostname: unique('urn'), ip: '192.0.2.1' });
    const urn = `urn:uuid:${device.id}`;
    const read = await ctx.as('admin', { method: 'GET', url: `/devices/${urn}` });
    expect(read.statusCode, read.body).toBe(400);
    expect(read.json().message).toBe('params/id must be a UUID');
    const listed = await ctx.as('admin', { method: 'GET', url: `/devices?id__in=${urn}` });
    expect(listed.statusCode, listed.body).toBe(400);
    expect(listed.json().message).toBe(`Invalid value in query parameter id__in: "${urn}"`);
    const filtered = await ctx.as('admin', { method: 'GET', url: `/devices?location_id=${urn}` });
    expect(filtered.statusCode, filtered.body).toBe(400);
    expect(filtered.json().message).toContain('location_id');
    const written = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${device.id}`,
      payload: { location_id: urn },
    });
    expect(written.statusCode, written.body).toBe(400);
    expect(written.json().message).toBe('body/location_id must be a UUID');
    const deleted = await ctx.as('admin', { method: 'DELETE', url: '/devices', payload: [urn] });
    expect(deleted.statusCode, deleted.body).toBe(400);
    expect(deleted.json().message).toBe('Item 0: must be a UUID');
  });
});
