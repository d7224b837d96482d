import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';
import { type Browser, csrfOf, post, signIn, visit } from './inject.js';

/** The revoke page of a token that is not there tells a revoked token from one never made. */

let ctx: TestContext;
let admin: Browser;
beforeAll(async () => {
  ctx = await startTestApp();
  admin = await signIn(ctx.app, 'admin', TEST_PASSWORD);
});
afterAll(() => ctx?.close());

describe('the revoke page of a token that is not there', () => {
  it('says there is no such token when it never existed', async () => {
    const page = await visit(
      ctx.app,
      admin,
      '/ui/admin/tokens/00000000-0000-7000-8000-000000000000/revoke',
    );
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('No such token');
    expect(page.body).not.toContain('it has been revoked');
  });

  it('says it was revoked once it has been', async () => {
    const made = await ctx.as('admin', {
      method: 'POST',
      url: '/api-tokens',
      payload: { name: 'to-revoke', scopes: ['events:read'] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().id;
    const ask = await visit(ctx.app, admin, `/ui/admin/tokens/${id}/revoke`);
    expect(ask.statusCode).toBe(200);
    const revoked = await post(ctx.app, admin, `/ui/admin/tokens/${id}/revoke`, {
      _csrf: csrfOf(ask.body),
      name: 'to-revoke',
    });
    expect(revoked.statusCode).toBe(303);
    const again = await visit(ctx.app, admin, `/ui/admin/tokens/${id}/revoke`);
    expect(again.statusCode).toBe(404);
    expect(again.body).toContain('This API token has been revoked');
  });
});
