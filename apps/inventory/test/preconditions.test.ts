import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, startTestApp, type TestContext, unique } from './helpers.js';

/**
 * Preconditions are evaluated on every write in RFC 9110's order (If-Match, then If-None-Match;
 * §13.2.2) or refused with 400 where a write does not evaluate them: never ignored.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

const device = async () => {
  const made = await create(ctx, 'devices', { hostname: unique('pre'), ip: '192.0.2.1' });
  const read = await ctx.as('admin', { method: 'GET', url: `/devices/${made.id}` });
  return { id: made.id, etag: String(read.headers.etag), hostname: String(made.hostname) };
};

const hostnameOf = async (id: string) =>
  (await ctx.as('admin', { method: 'GET', url: `/devices/${id}` })).json().hostname;

describe('If-None-Match on writes', () => {
  it('PUT with If-None-Match: * on an existing record is 412 and changes nothing', async () => {
    const { id, hostname } = await device();
    const response = await ctx.as('admin', {
      method: 'PUT',
      url: `/devices/${id}`,
      headers: { 'if-none-match': '*' },
      payload: { hostname: 'overwritten', ip: '192.0.2.9' },
    });
    expect(response.statusCode, response.body).toBe(412);
    expect(await hostnameOf(id)).toBe(hostname);
  });

  it('PATCH with If-None-Match naming the current tag is 412; another tag lets it through', async () => {
    const { id, etag, hostname } = await device();
    const refused = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${id}`,
      headers: { 'if-none-match': `W/${etag}` },
      payload: { hostname: 'changed' },
    });
    expect(refused.statusCode, refused.body).toBe(412);
    expect(await hostnameOf(id)).toBe(hostname);
    const allowed = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${id}`,
      headers: { 'if-none-match': '"1", "2"', 'if-match': etag },
      payload: { hostname: unique('changed') },
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
  });

  it('DELETE with If-None-Match: * is 412; If-Match is evaluated before If-None-Match', async () => {
    const { id, etag } = await device();
    const star = await ctx.as('admin', {
      method: 'DELETE',
      url: `/devices/${id}`,
      headers: { 'if-none-match': '*' },
    });
    expect(star.statusCode).toBe(412);
    const stale = await ctx.as('admin', {
      method: 'DELETE',
      url: `/devices/${id}`,
      headers: { 'if-match': '"not-the-tag"', 'if-none-match': '"other"' },
    });
    expect(stale.statusCode).toBe(412);
    const done = await ctx.as('admin', {
      method: 'DELETE',
      url: `/devices/${id}`,
      headers: { 'if-match': etag, 'if-none-match': '"other"' },
    });
    expect(done.statusCode, done.body).toBe(204);
  });
});

describe('preconditions a write does not evaluate', () => {
  it('are refused with 400 naming the header, and nothing is written', async () => {
    const { id } = await device();
    const cases = [
      {
        method: 'POST' as const,
        url: '/devices',
        headers: { 'if-match': '"1"' },
        payload: { hostname: unique('never'), ip: '192.0.2.1' },
        header: 'If-Match',
      },
      {
        method: 'POST' as const,
        url: '/devices',
        headers: { 'if-none-match': '*' },
        payload: { hostname: unique('never'), ip: '192.0.2.1' },
        header: 'If-None-Match',
      },
      {
        method: 'DELETE' as const,
        url: '/devices',
        headers: { 'if-match': '*' },
        payload: [id],
        header: 'If-Match',
      },
      {
        method: 'PATCH' as const,
        url: '/devices',
        headers: { 'if-match': '"1"' },
        payload: [{ id, hostname: 'never' }],
        header: 'If-Match',
      },
    ];
    for (const { header, ...request } of cases) {
      const response = await ctx.as('admin', request);
      expect(response.statusCode, `${request.method} ${response.body}`).toBe(400);
      expect(response.json().message).toContain(`${header} is not evaluated`);
    }
    const still = await ctx.as('admin', { method: 'GET', url: `/devices/${id}` });
    expect(still.statusCode).toBe(200);
    const never = await ctx.as('admin', {
      method: 'GET',
      url: '/devices?q=never',
    });
    expect(never.json().meta.total_count).toBe(0);
  });
});
