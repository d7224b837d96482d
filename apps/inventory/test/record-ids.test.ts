import { describe, expect, it } from 'vitest';
import { auditRowsOf, create, createAccount, unique, useTestApp } from './helpers.js';

/** Record ids are uuids: the same record whatever the letter case a client writes it in. */
const ctx = useTestApp();

describe('ids are case-insensitive, and the audit trail names each record once, as stored (found by the OpenAPI fuzzer)', () => {
  it('a batch DELETE naming one id twice in different case is refused like a batch PATCH', async () => {
    const device = await create(ctx, 'devices', { hostname: unique('dup'), ip: '192.0.2.1' });
    const response = await ctx.as('admin', {
      method: 'DELETE',
      url: '/devices',
      payload: [device.id, device.id.toUpperCase()],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      status: 'error',
      message: `Duplicate id in batch: ${device.id.toUpperCase()}`,
    });
    expect(
      (await ctx.as('admin', { method: 'GET', url: `/devices/${device.id}` })).statusCode,
    ).toBe(200);
    expect(await auditRowsOf(ctx, device.id)).toEqual([
      { action: 'create', resource_id: device.id },
    ]);
  });

  it('changes made through an upper-case id are audited under the id as stored', async () => {
    const device = await create(ctx, 'devices', { hostname: unique('case'), ip: '192.0.2.1' });
    const upper = device.id.toUpperCase();
    const requests = [
      { method: 'PATCH', url: `/devices/${upper}`, payload: { vendor: 'a' } },
      {
        method: 'PUT',
        url: `/devices/${upper}`,
        payload: { hostname: unique('case'), ip: '192.0.2.2' },
      },
      { method: 'PATCH', url: '/devices', payload: [{ id: upper, vendor: 'b' }] },
      { method: 'DELETE', url: '/devices', payload: [upper] },
    ] as const;
    for (const request of requests) {
      const response = await ctx.as('admin', request);
      expect(response.statusCode, response.body).toBeLessThan(300);
    }
    expect(await auditRowsOf(ctx, device.id)).toEqual(
      ['create', 'update', 'replace', 'update', 'delete'].map((action) => ({
        action,
        resource_id: device.id,
      })),
    );
  });

  it('the same holds for accounts', async () => {
    const user = await createAccount(ctx, 'case');
    const upper = user.id.toUpperCase();
    for (const request of [
      { method: 'PUT', url: `/users/${upper}`, payload: { role: 'editor' } },
      {
        method: 'PUT',
        url: `/users/${upper}/password`,
        payload: { new_password: 'changed-pass-1' },
      },
      { method: 'DELETE', url: `/users/${upper}` },
    ] as const) {
      const response = await ctx.as('admin', request);
      expect(response.statusCode, response.body).toBeLessThan(300);
    }
    expect((await auditRowsOf(ctx, user.id)).map((row) => row.resource_id)).toEqual(
      Array(4).fill(user.id),
    );
  });
});
