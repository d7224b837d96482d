import { EventEmitter, once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { holdInTransaction, openTestStore, testDatabaseUrl } from '@netops/store/testing';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { apiTokens } from '../../src/auth/api-tokens-routes.js';
import { PasswordHasher } from '../../src/auth/passwords.js';
import { TokenService } from '../../src/auth/tokens.js';
import { seedInitialAccounts } from '../../src/auth/users.js';
import { type Database, MIGRATIONS_FOLDER } from '../../src/db/schema.js';
import { events } from '../../src/events/definition.js';
import { offers, RESOURCE_OPERATIONS } from '../../src/resources/definition.js';
import { RESOURCES } from '../../src/resources/index.js';
import { users } from '../../src/users/definition.js';
import {
  makeUser,
  TEST_HASHING,
  TEST_PASSWORD,
  type TestContext,
  THROWAWAY_PASSWORD,
  testConfig,
  unique,
} from '../helpers.js';

/**
 * A request is authenticated when its headers arrive; its body may come seconds later. What it
 * writes must be written by an identity that is still valid then: an account still active, with
 * the role it had, a password (token epoch) unchanged, an API token not revoked, a web interface
 * session not ended. Checked inside the writing statement or transaction (migration 020), so a
 * revocation committed at any moment before the write commits is seen.
 *
 * Each test sends a request's headers on a raw socket, waits for the server to authenticate them,
 * revokes the credential through another request, and only then sends the body.
 */

let ctx: TestContext;
let base: { host: string; port: number };
/** Emits 'authenticated' with the request's method and URL once the guard has admitted it. */
const authenticated = new EventEmitter();

beforeAll(async () => {
  const store = await openTestStore<Database>({ migrations: MIGRATIONS_FOLDER });
  await seedInitialAccounts(store.db, new PasswordHasher(TEST_HASHING), TEST_PASSWORD);
  const app: FastifyInstance = await buildApp(testConfig(), { store });
  // After the guard's own hook (registered by buildApp): the request is authenticated here.
  app.addHook('onRequest', async (request) => {
    if (request.user || request.apiToken) authenticated.emit('authenticated', request.url);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = { host: '127.0.0.1', port: (app.server.address() as AddressInfo).port };
  const admin = await loginToken(app, 'admin');
  ctx = {
    app,
    store,
    tokens: { admin, editor: '', viewer: '' },
    as: (_role, options) =>
      app.inject({ ...options, headers: { ...options.headers, authorization: `Bearer ${admin}` } }),
    reset: async () => {},
    close: async () => {
      await app.close();
      await store.close();
    },
  };
});
afterAll(() => ctx?.close());

async function loginToken(app: FastifyInstance, username: string, password = TEST_PASSWORD) {
  const response = await app.inject({
    method: 'POST',
    url: '/users/login',
    payload: { username, password },
  });
  return response.json<{ token: string }>().token;
}

interface RawAnswer {
  status: number;
  headers: string;
  body: string;
}

/**
 * Sends a request's headers now and its body when `sendBody` is called, on one HTTP/1.1
 * connection; `answer` resolves with what the server said.
 */
function slowBodyRequest(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
) {
  const socket = connect(base.port, base.host);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const head = text.slice(0, split);
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
        headers: head,
        body: text.slice(split + 4),
      });
    });
  });
  const lines = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${base.host}:${base.port}`,
    'Connection: close',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  return {
    sendBody: () => socket.write(body),
    answer,
  };
}

/**
 * The whole scenario: headers sent and authenticated, `revoke` run, then the body sent. Answers
 * the server's response to the slow request.
 */
async function revokedMidRequest(
  request: { method: string; path: string; headers: Record<string, string>; body: string },
  revoke: () => Promise<void>,
): Promise<RawAnswer> {
  const admitted = once(authenticated, 'authenticated');
  const slow = slowBodyRequest(request.method, request.path, request.headers, request.body);
  await admitted;
  await revoke();
  slow.sendBody();
  return slow.answer;
}

const json = (token: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
});

async function setAccount(id: string, fields: Record<string, unknown>) {
  const response = await ctx.as('admin', { method: 'PUT', url: `/users/${id}`, payload: fields });
  expect(response.statusCode, response.body).toBe(200);
}

const deactivate = (id: string) => () => setAccount(id, { inactive_status: true });

async function deviceCount(hostnamePrefix: string) {
  const result = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM devices WHERE hostname LIKE ${`${hostnamePrefix}%`}`.execute(
    ctx.store.db,
  );
  return result.rows[0]?.n ?? 0;
}

function expectRevoked(answer: RawAnswer) {
  expect(answer.status, answer.body).toBe(401);
  expect(answer.headers).toMatch(/content-type: application\/json/i);
  expect(JSON.parse(answer.body)).toEqual({
    status: 'error',
    message: expect.stringMatching(/^Unauthorized/),
  });
}

describe('a write whose credential is revoked after its headers and before its body is refused with 401, nothing written', () => {
  it('a bearer token of an account deactivated meanwhile: single create', async () => {
    const writer = await makeUser(ctx, 'admin', 'slow');
    const prefix = unique('slow-single');
    const answer = await revokedMidRequest(
      {
        method: 'POST',
        path: '/devices',
        headers: json(writer.token),
        body: JSON.stringify({ hostname: `${prefix}-a`, ip: '192.0.2.1' }),
      },
      deactivate(writer.id),
    );
    expectRevoked(answer);
    expect(await deviceCount(prefix)).toBe(0);
  });

  it('a bearer token of an admin demoted meanwhile (the route is for admins)', async () => {
    const writer = await makeUser(ctx, 'admin', 'slow');
    const prefix = unique('slow-demoted');
    const answer = await revokedMidRequest(
      {
        method: 'POST',
        path: '/devices',
        headers: json(writer.token),
        body: JSON.stringify({ hostname: `${prefix}-a`, ip: '192.0.2.1' }),
      },
      () => setAccount(writer.id, { role: 'editor' }),
    );
    expectRevoked(answer);
    expect(await deviceCount(prefix)).toBe(0);
  });

  it('a bearer token whose password was changed meanwhile: bulk create and CSV import', async () => {
    for (const [type, body] of [
      [
        'application/json',
        (p: string) => JSON.stringify([{ hostname: `${p}-a`, ip: '192.0.2.1' }]),
      ],
      ['text/csv', (p: string) => `hostname,ip\r\n${p}-a,192.0.2.1\r\n`],
    ] as const) {
      const writer = await makeUser(ctx, 'admin', 'slow');
      const prefix = unique('slow-bulk');
      const answer = await revokedMidRequest(
        {
          method: 'POST',
          path: '/devices',
          headers: { authorization: `Bearer ${writer.token}`, 'content-type': type },
          body: body(prefix),
        },
        async () => {
          const changed = await ctx.as('admin', {
            method: 'PUT',
            url: `/users/${writer.id}/password`,
            payload: { new_password: 'another-password-1' },
          });
          expect(changed.statusCode, changed.body).toBe(200);
        },
      );
      expectRevoked(answer);
      expect(await deviceCount(prefix)).toBe(0);
    }
  });

  it('updates and deletes, single and batch, of an account deactivated meanwhile', async () => {
    const device = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: { hostname: unique('slow-target'), ip: '192.0.2.9', vendor: 'before' },
    });
    const id = device.json<{ id: string }>().id;
    for (const [method, path, body] of [
      ['PATCH', `/devices/${id}`, { vendor: 'after' }],
      [
        'PUT',
        `/devices/${id}`,
        { hostname: unique('slow-target'), ip: '192.0.2.9', vendor: 'after' },
      ],
      ['PATCH', '/devices', [{ id, vendor: 'after' }]],
      ['DELETE', '/devices', [id]],
    ] as const) {
      const writer = await makeUser(ctx, 'admin', 'slow');
      const answer = await revokedMidRequest(
        { method, path, headers: json(writer.token), body: JSON.stringify(body) },
        deactivate(writer.id),
      );
      expectRevoked(answer);
      const now = await ctx.as('admin', { method: 'GET', url: `/devices/${id}` });
      expect(now.statusCode).toBe(200);
      expect(now.json<{ vendor: string }>().vendor).toBe('before');
    }
  });

  it('account writes: a user changing their own account or password after being deactivated', async () => {
    for (const [path, body] of [
      ['', { email: `${unique('slow')}@example.com` }],
      ['/password', { new_password: 'yet-another-password' }],
    ] as const) {
      const writer = await makeUser(ctx, 'viewer', 'slow');
      const answer = await revokedMidRequest(
        {
          method: 'PUT',
          path: `/users/${writer.id}${path}`,
          headers: json(writer.token),
          body: JSON.stringify(body),
        },
        deactivate(writer.id),
      );
      expectRevoked(answer);
      // Nothing changed: the old password still signs in once the account is active again.
      await setAccount(writer.id, { inactive_status: false });
      expect(await loginToken(ctx.app, writer.username, THROWAWAY_PASSWORD)).toEqual(
        expect.any(String),
      );
    }
  });

  it('an API token revoked meanwhile: events', async () => {
    const created = await ctx.as('admin', {
      method: 'POST',
      url: '/api-tokens',
      payload: { name: unique('slow'), scopes: ['events:write'] },
    });
    const token = created.json<{ id: string; token: string }>();
    const message = unique('slow-event');
    const answer = await revokedMidRequest(
      {
        method: 'POST',
        path: '/events',
        headers: json(token.token),
        body: JSON.stringify({ type: 'status', severity: 'info', message }),
      },
      async () => {
        const revoked = await ctx.as('admin', { method: 'DELETE', url: `/api-tokens/${token.id}` });
        expect(revoked.statusCode).toBe(204);
      },
    );
    expectRevoked(answer);
    const stored = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM events WHERE message = ${message}`.execute(ctx.store.db);
    expect(stored.rows[0]?.n).toBe(0);
  });

  it('metrics of an account deactivated meanwhile', async () => {
    const device = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: { hostname: unique('slow-metrics'), ip: '192.0.2.10' },
    });
    const deviceId = device.json<{ id: string }>().id;
    const writer = await makeUser(ctx, 'admin', 'slow');
    const answer = await revokedMidRequest(
      {
        method: 'POST',
        path: '/metrics',
        headers: json(writer.token),
        body: JSON.stringify({ device_id: deviceId, cpu: 12 }),
      },
      deactivate(writer.id),
    );
    expectRevoked(answer);
    const stored = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM device_metrics WHERE device_id = ${deviceId}`.execute(
      ctx.store.db,
    );
    expect(stored.rows[0]?.n).toBe(0);
  });
});

describe('the web interface writes through the API with its session checked in the same statement', () => {
  async function uiSession(username: string, password: string) {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/ui/login',
      payload: new URLSearchParams({ username, password, next: '/ui/' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const cookie = String(response.headers['set-cookie']).split(';')[0] ?? '';
    const page = await ctx.app.inject({
      method: 'GET',
      url: '/ui/devices/new',
      headers: { cookie },
    });
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    expect(csrf).not.toBe('');
    return { cookie, csrf };
  }

  it('a form posted slowly after its session was ended creates nothing', async () => {
    const writer = await makeUser(ctx, 'admin', 'slow-ui');
    const { cookie, csrf } = await uiSession(writer.username, THROWAWAY_PASSWORD);
    const prefix = unique('slow-ui');
    const answer = await revokedMidRequestUi(cookie, csrf, prefix, async () => {
      const ended = await ctx.app.inject({
        method: 'POST',
        url: '/ui/logout',
        payload: new URLSearchParams({ _csrf: csrf }).toString(),
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(ended.statusCode).toBe(303);
    });
    expect(answer.status).toBe(303);
    expect(answer.headers).toMatch(/location: \/ui\/login/i);
    expect(await deviceCount(prefix)).toBe(0);
  });

  /** The interface's pages are public routes: the socket is sent once the route is reached. */
  async function revokedMidRequestUi(
    cookie: string,
    csrf: string,
    prefix: string,
    revoke: () => Promise<void>,
  ) {
    const slow = slowBodyRequest(
      'POST',
      '/ui/devices/new',
      { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ _csrf: csrf, hostname: `${prefix}-a`, ip: '192.0.2.1' }).toString(),
    );
    // The headers are read before the revocation: a moment is enough, the body is what waits.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await revoke();
    slow.sendBody();
    return slow.answer;
  }

  it('a token the interface minted for a session that has ended since writes nothing', async () => {
    const writer = await makeUser(ctx, 'admin', 'ui-ended');
    const { cookie, csrf } = await uiSession(writer.username, THROWAWAY_PASSWORD);
    const session = await sql<{ id_hash: string; token_epoch: string }>`
      SELECT id_hash, token_epoch FROM ui_sessions WHERE user_id = ${writer.id}`.execute(
      ctx.store.db,
    );
    const row = session.rows[0];
    if (!row) throw new Error('no session');
    // The interface's own token for this session, as apiFor mints it.
    const token = new TokenService(testConfig().jwtSecret, 60).sign({
      sub: writer.id,
      username: writer.username,
      role: 'admin',
      pwd: Number(row.token_epoch),
      sid: row.id_hash,
    });
    const prefix = unique('ui-ended');
    const write = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/devices',
        headers: { authorization: `Bearer ${token}` },
        payload: { hostname: `${prefix}-${unique('x')}`, ip: '192.0.2.1' },
      });
    expect((await write()).statusCode).toBe(201);
    await ctx.app.inject({
      method: 'POST',
      url: '/ui/logout',
      payload: new URLSearchParams({ _csrf: csrf }).toString(),
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    });
    const refused = await write();
    expect(refused.statusCode, refused.body).toBe(401);
    expect(await deviceCount(prefix)).toBe(1);
  });
});

describe('the check is made in the writing transaction, against the newest committed state', () => {
  it.skipIf(!testDatabaseUrl())(
    'a deactivation in progress when the write arrives is waited for, then refuses it (PostgreSQL)',
    async () => {
      const writer = await makeUser(ctx, 'admin', 'race');
      const prefix = unique('race');
      // The deactivation is made and held uncommitted: the guard, reading committed rows, admits
      // the request; its write must wait for the deactivation and then see it.
      const revocation = await holdInTransaction(ctx.store.db, (trx) =>
        trx
          .updateTable('users')
          .set({ inactive_status: true })
          .where('id', '=', writer.id)
          .execute(),
      );
      const write = ctx.app.inject({
        method: 'POST',
        url: '/devices',
        headers: { authorization: `Bearer ${writer.token}` },
        payload: { hostname: `${prefix}-a`, ip: '192.0.2.1' },
      });
      // Released once the write is seen waiting for the account's row lock.
      let waited = false;
      for (let i = 0; i < 160 && !waited; i++) {
        const waiting = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE wait_event_type = 'Lock' AND query ILIKE '%insert into "devices"%'`.execute(
          ctx.store.db,
        );
        waited = (waiting.rows[0]?.n ?? 0) > 0;
        if (!waited) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await revocation.release();
      const answer = await write;
      expect(waited).toBe(true);
      expect(answer.statusCode, answer.body).toBe(401);
      expect(await deviceCount(prefix)).toBe(0);
    },
  );

  it("a change of the writer's own account is judged as the account was before it", async () => {
    // An admin deactivating themselves, a user changing their own password or e-mail.
    const admin = await makeUser(ctx, 'admin', 'self');
    const selfDeactivated = await ctx.app.inject({
      method: 'PUT',
      url: `/users/${admin.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { inactive_status: true },
    });
    expect(selfDeactivated.statusCode, selfDeactivated.body).toBe(200);
    const user = await makeUser(ctx, 'viewer', 'self');
    for (const [path, payload] of [
      ['', { email: `${unique('self')}@example.com` }],
      ['/password', { new_password: 'a-new-password-1' }],
    ] as const) {
      const changed = await ctx.app.inject({
        method: 'PUT',
        url: `/users/${user.id}${path}`,
        headers: { authorization: `Bearer ${user.token}` },
        payload,
      });
      expect(changed.statusCode, changed.body).toBe(200);
    }
  });

  it('every table a resource writes carries the check', async () => {
    const checked = await sql<{ table: string }>`
      SELECT DISTINCT c.relname AS table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      JOIN pg_proc p ON p.oid = t.tgfoid
      WHERE p.proname = 'inventory_check_principal'
         OR p.prosrc LIKE '%inventory_check_principal_once%'`.execute(ctx.store.db);
    const tables = new Set(checked.rows.map((row) => row.table));
    const writes = RESOURCE_OPERATIONS.filter(
      (operation) => !['list', 'read', 'history'].includes(operation),
    );
    const writable = [...RESOURCES, users, apiTokens, events]
      .filter((definition) => writes.some((operation) => offers(definition, operation)))
      .map((definition) => definition.table);
    expect(writable.length).toBeGreaterThan(8);
    expect(writable.filter((table) => !tables.has(table))).toEqual([]);
  });
});
