import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_SETTINGS } from '../../src/webhooks/worker.js';
import { create, startTestApp, type TestContext, unique } from '../helpers.js';
import { type Received, startReceiver } from './receiver.js';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

export const TEST_WEBHOOK_SETTINGS = {
  ...DEFAULT_WEBHOOK_SETTINGS,
  allowPrivateTargets: true,
  secretKey: undefined,
  pollMs: 200,
  firstRetryDelayMs: 100,
  maxRetryDelayMs: 400,
  timeoutMs: 2000,
  leaseMs: 5000,
};

/** Both signatures checked with implementations other than the service's. */
function verify(message: Received, secret = SECRET) {
  const verified = new Webhook(secret).verify(message.body, {
    'webhook-id': String(message.headers['webhook-id']),
    'webhook-timestamp': String(message.headers['webhook-timestamp']),
    'webhook-signature': String(message.headers['webhook-signature']),
  });
  expect(verified).toEqual(message.json);
  const netbox = createHmac('sha512', secret).update(message.body).digest('hex');
  expect(message.headers['x-hook-signature']).toBe(netbox);
}

describe('outbound webhooks', () => {
  let ctx: TestContext;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let hookId: string;

  beforeAll(async () => {
    ctx = await startTestApp({ webhooks: TEST_WEBHOOK_SETTINGS });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await ctx.close();
    await receiver.close();
  });
  beforeEach(async () => {
    await ctx.reset();
    await ctx.store.scriptTransaction((tx) => tx.exec('DELETE FROM webhooks'));
    receiver.received.length = 0;
    receiver.setStatus(200);
    const hook = await create(ctx, 'webhooks', {
      name: unique('hook'),
      url: receiver.url,
      secret: SECRET,
      headers: { 'X-Team': 'netops' },
    });
    hookId = hook.id;
  });

  const events = (all: Received[]) => all.map((m) => `${m.json.event} ${m.json.resource}`);

  it('never returns the secret, and is admin-only', async () => {
    const read = await ctx.as('admin', { method: 'GET', url: `/webhooks/${hookId}` });
    expect(read.statusCode).toBe(200);
    expect(read.json()).not.toHaveProperty('secret');
    expect(read.body).not.toContain(SECRET.slice(6, 20));
    const list = await ctx.as('admin', { method: 'GET', url: '/webhooks' });
    expect(list.body).not.toContain('secret');
    const csv = await ctx.as('admin', { method: 'GET', url: '/webhooks?format=csv' });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\n')[0]).not.toContain('secret');
    expect(csv.body).toContain('X-Team');
    expect(csv.body).not.toContain('v1.');
    expect((await ctx.as('viewer', { method: 'GET', url: '/webhooks' })).statusCode).toBe(403);
    expect((await ctx.as('editor', { method: 'GET', url: `/webhooks/${hookId}` })).statusCode).toBe(
      403,
    );
    const stored = await ctx.store.scriptTransaction((tx) =>
      tx.query<{ secret: string }>('SELECT secret FROM webhooks WHERE id = $1', [hookId]),
    );
    expect(stored[0]?.secret).toMatch(/^v1\./);
    expect(stored[0]?.secret).not.toContain(SECRET.slice(6));
    const audit = await ctx.store.scriptTransaction((tx) =>
      tx.query<{ row: string }>(
        "SELECT to_jsonb(a)::text AS row FROM audit_logs a WHERE resource_type = 'webhooks'",
      ),
    );
    expect(audit.length).toBeGreaterThan(0);
    for (const row of audit) expect(row.row).not.toContain('v1.');
  });

  it('delivers single creates, replaces, updates and deletes, signed', async () => {
    const device = await create(ctx, 'devices', { hostname: unique('dev'), ip: '192.0.2.1' });
    const patched = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${device.id}`,
      payload: { status: 'maintenance' },
    });
    expect(patched.statusCode).toBe(200);
    const put = await ctx.as('admin', {
      method: 'PUT',
      url: `/devices/${device.id}`,
      payload: { hostname: String(device.hostname), ip: '192.0.2.2' },
    });
    expect(put.statusCode).toBe(200);
    expect(
      (await ctx.as('admin', { method: 'DELETE', url: `/devices/${device.id}` })).statusCode,
    ).toBe(204);
    await receiver.waitFor((all) => all.length >= 4);
    expect(events(receiver.received)).toEqual([
      'created devices',
      'updated devices',
      'updated devices',
      'deleted devices',
    ]);
    for (const message of receiver.received) {
      verify(message);
      expect(message.json.id).toBe(device.id);
      expect(message.headers['x-team']).toBe('netops');
      expect(message.json.username).toBe('admin');
      expect(typeof message.json.request_id).toBe('string');
    }
    const [created, updated, , deleted] = receiver.received as [
      Received,
      Received,
      Received,
      Received,
    ];
    expect(created.json.snapshots.prechange).toBeNull();
    expect(created.json.data?.hostname).toBe(device.hostname);
    expect(updated.json.changes.status).toEqual(['active', 'maintenance']);
    expect(updated.json.snapshots.prechange?.status).toBe('active');
    expect(deleted.json.data).toBeNull();
    expect(deleted.json.snapshots.prechange?.ip).toBe('192.0.2.2');
    // One webhook-id per delivery.
    expect(new Set(receiver.received.map((m) => m.headers['webhook-id'])).size).toBe(4);
  });

  it('leaves out a header stored before it was refused (Content-Encoding), keeping the others', async () => {
    await ctx.store.scriptTransaction((tx) =>
      tx.query(
        `UPDATE webhooks SET headers = '{"X-Team": "netops", "Content-Encoding": "gzip"}'::jsonb WHERE id = $1`,
        [hookId],
      ),
    );
    await create(ctx, 'devices', { hostname: unique('dev'), ip: '192.0.2.1' });
    await receiver.waitFor((all) => all.length >= 1);
    const [message] = receiver.received as [Received];
    expect(message.headers['content-encoding']).toBeUndefined();
    expect(message.headers['x-team']).toBe('netops');
    verify(message);
  });

  it('delivers bulk creates, batch updates and batch deletes', async () => {
    const bulk = await ctx.as('admin', {
      method: 'POST',
      url: '/vlans',
      payload: [1, 2, 3].map((n) => ({ vlan_id: 100 + n, name: `v${n}` })),
    });
    expect(bulk.statusCode).toBe(201);
    const ids = (bulk.json() as Array<{ id: string }>).map((row) => row.id);
    const patched = await ctx.as('admin', {
      method: 'PATCH',
      url: '/vlans',
      payload: ids.map((id) => ({ id, status: 'active' })),
    });
    expect(patched.statusCode).toBe(200);
    const deleted = await ctx.as('admin', { method: 'DELETE', url: '/vlans', payload: ids });
    expect(deleted.statusCode).toBe(200);
    await receiver.waitFor((all) => all.length >= 9);
    for (const message of receiver.received) verify(message);
    for (const id of ids) {
      expect(receiver.received.filter((m) => m.json.id === id).map((m) => m.json.event)).toEqual([
        'created',
        'updated',
        'deleted',
      ]);
    }
  });

  it('delivers the updates a cascade makes (devices of a deleted location)', async () => {
    const location = await create(ctx, 'locations', { name: unique('site') });
    const device = await create(ctx, 'devices', {
      hostname: unique('dev'),
      ip: '192.0.2.9',
      location_id: location.id,
    });
    expect(
      (await ctx.as('admin', { method: 'DELETE', url: `/locations/${location.id}` })).statusCode,
    ).toBe(204);
    await receiver.waitFor((all) => all.length >= 4);
    const cascaded = receiver.received.find(
      (m) => m.json.resource === 'devices' && m.json.event === 'updated',
    );
    expect(cascaded?.json.id).toBe(device.id);
    expect(cascaded?.json.changes.location_id).toEqual([location.id, null]);
    expect(cascaded?.json.data?.location_id).toBeNull();
    if (cascaded) verify(cascaded);
  });

  it('delivers nothing of a rolled-back batch (fails on its 3rd item)', async () => {
    const taken = unique('dev');
    await create(ctx, 'devices', { hostname: taken, ip: '192.0.2.1' });
    const failed = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: [
        { hostname: unique('dev'), ip: '192.0.2.3' },
        { hostname: unique('dev'), ip: '192.0.2.4' },
        { hostname: taken, ip: '192.0.2.5' },
      ],
    });
    expect(failed.statusCode).toBe(409);
    // A change after it proves the worker has gone past the batch's place.
    const marker = await create(ctx, 'vlans', { vlan_id: 999, name: 'marker' });
    await receiver.waitFor((all) => all.some((m) => m.json.id === marker.id));
    expect(receiver.received.filter((m) => m.json.resource === 'devices')).toHaveLength(1);
    const queued = await ctx.store.scriptTransaction((tx) =>
      tx.query<{ count: number }>('SELECT count(*)::int AS count FROM webhook_deliveries'),
    );
    expect(queued[0]?.count).toBe(2);
  });

  it('matches events, resources and the filter', async () => {
    await ctx.store.scriptTransaction((tx) => tx.exec('DELETE FROM webhooks'));
    await create(ctx, 'webhooks', {
      name: unique('hook'),
      url: receiver.url,
      events: ['updated'],
      resources: ['devices'],
      filter: { status: 'maintenance' },
      secret: SECRET,
    });
    const device = await create(ctx, 'devices', { hostname: unique('dev'), ip: '192.0.2.1' });
    await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${device.id}`,
      payload: { vendor: 'x' },
    });
    await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${device.id}`,
      payload: { status: 'maintenance' },
    });
    await create(ctx, 'vlans', { vlan_id: 5, name: 'five' });
    await receiver.waitFor((all) => all.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(events(receiver.received)).toEqual(['updated devices']);
    expect(receiver.received[0]?.json.changes).toEqual({ status: ['active', 'maintenance'] });
  });

  it('retries while the receiver is down, then delivers all in order per record', async () => {
    receiver.setStatus(503);
    const device = await create(ctx, 'devices', { hostname: unique('dev'), ip: '192.0.2.1' });
    for (let n = 1; n <= 5; n++) {
      const response = await ctx.as('admin', {
        method: 'PATCH',
        url: `/devices/${device.id}`,
        payload: { rack_position: `U${n}` },
      });
      expect(response.statusCode).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received).toHaveLength(0);
    receiver.setStatus(200);
    await receiver.waitFor((all) => all.length >= 6);
    expect(receiver.received.map((m) => m.json.data?.rack_position ?? null)).toEqual([
      null,
      'U1',
      'U2',
      'U3',
      'U4',
      'U5',
    ]);
    type Attempt = {
      status_code: number | null;
      response_excerpt: string | null;
      error: string | null;
    };
    let rows: Attempt[] = [];
    // The attempt is recorded just after the receiver answered.
    for (let tries = 0; tries < 50; tries++) {
      const attempts = await ctx.as('admin', {
        method: 'GET',
        url: `/webhooks/${hookId}/deliveries?limit=100`,
      });
      expect(attempts.statusCode).toBe(200);
      rows = attempts.json().data as Attempt[];
      if (rows.filter((row) => row.status_code === 200).length >= 6) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(rows.some((row) => row.status_code === 503 && row.error === 'HTTP 503')).toBe(true);
    // The receiver's 503 body ends with ESC: stored as '?'.
    expect(rows.every((row) => !(row.response_excerpt ?? '').includes('\u001b'))).toBe(true);
    expect(rows.filter((row) => row.status_code === 200)).toHaveLength(6);
  });

  it('marks a delivery failed once its retry period is over, then lets the record go on', async () => {
    receiver.setStatus(500);
    const vlan = await create(ctx, 'vlans', { vlan_id: 4000, name: 'doomed' });
    const state = async () =>
      (
        await ctx.store.scriptTransaction((tx) =>
          tx.query<{ state: string; attempts: number }>(
            'SELECT state, attempts FROM webhook_deliveries WHERE resource_id = $1 ORDER BY seq',
            [vlan.id],
          ),
        )
      )[0];
    for (let tries = 0; (await state())?.attempts === 0 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // As if the change were two days old: the next failure is the last.
    await ctx.store.scriptTransaction((tx) =>
      tx.exec(
        `UPDATE webhook_deliveries SET retry_from = now() - interval '2 days' WHERE resource_id = '${vlan.id}'`,
      ),
    );
    for (let tries = 0; (await state())?.state !== 'failed' && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await state())?.state).toBe('failed');
    // A failed delivery no longer holds the record's later changes back.
    receiver.setStatus(200);
    await ctx.as('admin', {
      method: 'PATCH',
      url: `/vlans/${vlan.id}`,
      payload: { name: 'later' },
    });
    await receiver.waitFor((all) => all.some((m) => m.json.data?.name === 'later'));
    expect(receiver.received.filter((m) => m.json.id === vlan.id)).toHaveLength(1);
    const attempts = await ctx.as('admin', {
      method: 'GET',
      url: `/webhooks/${hookId}/deliveries`,
    });
    expect(
      (attempts.json().data as Array<{ delivery_state: string; status_code: number }>).some(
        (row) => row.delivery_state === 'failed' && row.status_code === 500,
      ),
    ).toBe(true);
  });

  it('answers the write while the receiver hangs on its delivery', async () => {
    receiver.hold(true);
    try {
      const first = await create(ctx, 'vlans', { vlan_id: 3001, name: 'first' });
      for (let tries = 0; receiver.held() === 0 && tries < 200; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // The worker is stuck in a POST to a receiver that does not answer, and writes still go on.
      expect(receiver.held()).toBe(1);
      const second = await ctx.as('admin', {
        method: 'PATCH',
        url: `/vlans/${first.id}`,
        payload: { name: 'second' },
      });
      expect(second.statusCode).toBe(200);
      expect(receiver.held()).toBe(1);
    } finally {
      receiver.hold(false);
    }
    await receiver.waitFor((all) => all.length >= 2);
    expect(receiver.received.map((m) => m.json.data?.name)).toEqual(['first', 'second']);
  });

  it('lets an admin redeliver a delivery, with the same webhook-id', async () => {
    const vlan = await create(ctx, 'vlans', { vlan_id: 7, name: 'seven' });
    await receiver.waitFor((all) => all.length >= 1);
    const first = receiver.received[0] as Received;
    const deliveryId = String(first.headers['webhook-id']);
    const again = await ctx.as('admin', {
      method: 'POST',
      url: `/webhooks/${hookId}/deliveries/${deliveryId}/redeliver`,
    });
    expect(again.statusCode).toBe(202);
    await receiver.waitFor((all) => all.length >= 2);
    expect(receiver.received[1]?.headers['webhook-id']).toBe(deliveryId);
    expect(receiver.received[1]?.json.id).toBe(vlan.id);
    verify(receiver.received[1] as Received);
    const unknown = await ctx.as('admin', {
      method: 'POST',
      url: `/webhooks/${hookId}/deliveries/${hookId}/redeliver`,
    });
    expect(unknown.statusCode).toBe(404);
    expect(
      (
        await ctx.as('editor', {
          method: 'POST',
          url: `/webhooks/${hookId}/deliveries/${deliveryId}/redeliver`,
        })
      ).statusCode,
    ).toBe(403);
  });
});
