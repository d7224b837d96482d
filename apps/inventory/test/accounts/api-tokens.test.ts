import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../helpers.js';

/**
 * Viewers could create events (found by a hostile review). Viewers are refused; systems post with an
 * API token of narrow scope, created and revoked by an admin, stored hashed, shown once.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

const EVENT = { severity: 'info', type: 'probe', message: 'from a system' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function createToken(payload: Record<string, unknown>) {
  const response = await ctx.as('admin', { method: 'POST', url: '/api-tokens', payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Record<string, unknown> & { id: string; token: string }>();
}

describe('POST /events', () => {
  it('refuses viewers; admins and editors may post', async () => {
    const viewer = await ctx.as('viewer', { method: 'POST', url: '/events', payload: EVENT });
    expect(viewer.statusCode, viewer.body).toBe(403);
    for (const role of ['admin', 'editor'] as const) {
      const posted = await ctx.as(role, { method: 'POST', url: '/events', payload: EVENT });
      expect(posted.statusCode, posted.body).toBe(201);
    }
  });
});

describe('API tokens', () => {
  it('are created by an admin, shown once, stored hashed, and post events within their scope', async () => {
    const created = await createToken({ name: 'monitoring', scopes: ['events:write'] });
    expect(created.token).toMatch(/^nit_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      name: 'monitoring',
      scopes: ['events:write'],
      token_prefix: created.token.slice(0, 12),
      expires_at: null,
      last_used_at: null,
    });
    const stored = await ctx.store.db.selectFrom('api_tokens').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(created.token.slice(12));
    // Never shown again.
    const read = await ctx.as('admin', { url: `/api-tokens/${created.id}` });
    expect(read.statusCode).toBe(200);
    expect(read.json()).not.toHaveProperty('token');
    const list = await ctx.as('admin', { url: '/api-tokens' });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.body).not.toContain(created.token.slice(12));

    const posted = await ctx.app.inject({
      method: 'POST',
      url: '/events',
      headers: bearer(created.token),
      payload: EVENT,
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const used = await ctx.as('admin', { url: `/api-tokens/${created.id}` });
    expect(used.json().last_used_at).toEqual(expect.any(String));

    // Outside its scope: reading events, the inventory, anything else.
    for (const [method, url] of [
      ['GET', '/events'],
      ['GET', '/devices'],
      ['POST', '/devices'],
      ['GET', '/users'],
      ['GET', '/api-tokens'],
    ] as const) {
      const refused = await ctx.app.inject({ method, url, headers: bearer(created.token) });
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('events:read reads events and nothing else', async () => {
    const reader = await createToken({ name: 'dashboard', scopes: ['events:read'] });
    const list = await ctx.app.inject({ url: '/events', headers: bearer(reader.token) });
    expect(list.statusCode, list.body).toBe(200);
    const post = await ctx.app.inject({
      method: 'POST',
      url: '/events',
      headers: bearer(reader.token),
      payload: EVENT,
    });
    expect(post.statusCode).toBe(403);
  });

  it('stop working when revoked or expired; a malformed one is refused', async () => {
    const revoked = await createToken({ name: 'old', scopes: ['events:write'] });
    const deleted = await ctx.as('admin', { method: 'DELETE', url: `/api-tokens/${revoked.id}` });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const after = await ctx.app.inject({
      method: 'POST',
      url: '/events',
      headers: bearer(revoked.token),
      payload: EVENT,
    });
    expect(after.json()).toEqual({ status: 'error', message: 'Unauthorized: Invalid token' });

    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const expiring = await createToken({
      name: 'temp',
      scopes: ['events:write'],
      expires_at: soon,
    });
    expect(expiring.expires_at).toBe(soon);
    await ctx.store.db
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expiring.id)
      .execute();
    const expired = await ctx.app.inject({
      method: 'POST',
      url: '/events',
      headers: bearer(expiring.token),
      payload: EVENT,
    });
    expect(expired.json()).toEqual({ status: 'error', message: 'Unauthorized: Token expired' });

    for (const token of ['nit_', `nit_${'A'.repeat(43)}`, `nit_${'!'.repeat(43)}`]) {
      const bad = await ctx.app.inject({ url: '/events', headers: bearer(token) });
      expect(bad.statusCode, token).toBe(401);
    }
  });

  it('are managed by admins only, with checked input; creation and revocation are audited', async () => {
    for (const role of ['editor', 'viewer'] as const) {
      const refused = await ctx.as(role, {
        method: 'POST',
        url: '/api-tokens',
        payload: { name: 'x', scopes: ['events:write'] },
      });
      expect(refused.statusCode).toBe(403);
    }
    for (const payload of [
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['admin'] },
      { name: 'x', scopes: ['events:write', 'events:write'] },
      { name: '', scopes: ['events:write'] },
      { name: 'x', scopes: ['events:write'], expires_at: '2001-01-01T00:00:00Z' },
      { name: 'x', scopes: ['events:write'], token: 'nit_chosen' },
    ]) {
      const bad = await ctx.as('admin', { method: 'POST', url: '/api-tokens', payload });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const made = await createToken({ name: 'audited', scopes: ['events:write'] });
    await ctx.as('admin', { method: 'DELETE', url: `/api-tokens/${made.id}` });
    const trail = await ctx.store.db
      .selectFrom('audit_logs')
      .select(['action', 'changes'])
      .where('resource_type', '=', 'api-tokens')
      .where('resource_id', '=', made.id)
      .orderBy('created_at')
      .execute();
    expect(trail.map((row) => row.action)).toEqual(['create', 'delete']);
    expect(JSON.stringify(trail)).not.toContain(made.token.slice(4));
    const gone = await ctx.as('admin', { method: 'DELETE', url: `/api-tokens/${made.id}` });
    expect(gone.statusCode).toBe(404);
  });
});
