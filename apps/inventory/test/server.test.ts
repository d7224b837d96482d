import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openStore, type Store } from '@netops/store';
import { pgliteTemplate } from '@netops/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { PasswordHasher } from '../src/auth/passwords.js';
import { seedInitialAccounts } from '../src/auth/users.js';
import { type Database, MIGRATIONS_FOLDER } from '../src/db/schema.js';
import {
  startTestApp,
  TEST_HASHING,
  TEST_PASSWORD,
  type TestContext,
  testConfig,
} from './helpers.js';

describe('a real listening server', () => {
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    ctx = await startTestApp();
    base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => ctx?.close());

  it('serves login, create and list over HTTP', async () => {
    const root = await fetch(`${base}/`);
    expect(await root.text()).toMatch(/version 1/);

    const login = await fetch(`${base}/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: TEST_PASSWORD }),
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('set-cookie')).toMatch(/^Bearer=/);
    const { token } = (await login.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const created = await fetch(`${base}/devices`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ hostname: 'edge-1', ip: '198.51.100.7', vendor: 'Arista' }),
    });
    expect(created.status).toBe(201);

    const list = await fetch(`${base}/devices?vendor=Arista&sortby=hostname:asc`, {
      headers: auth,
    });
    expect(list.status).toBe(200);
    const body = (await list.json()) as {
      meta: { total_count: number };
      data: Array<{ hostname: string }>;
    };
    expect(body.meta.total_count).toBe(1);
    expect(body.data[0]?.hostname).toBe('edge-1');

    const anonymous = await fetch(`${base}/devices`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({
      status: 'error',
      message: 'Unauthorized: No security token provided',
    });
  });

  /** The answer to a request line sent as bytes, as a client that does not encode would send it. */
  const rawAnswer = (target: Buffer) =>
    new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(base);
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          Buffer.concat([
            Buffer.from('GET '),
            target,
            Buffer.from(' HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
          ]),
        );
      });
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk.toString('latin1');
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(answer));
    });

  it('refuses bytes beyond ASCII sent unencoded in the URL, UTF-8 or not, before any route', async () => {
    // curl sends ?hostname=é as the UTF-8 bytes C3 A9; an older client sends Latin-1's E9 alone.
    for (const bytes of [[0xc3, 0xa9], [0xe9]]) {
      const answer = await rawAnswer(
        Buffer.concat([Buffer.from('/devices?hostname='), Buffer.from(bytes)]),
      );
      expect(answer, String(bytes)).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer.split('\r\n\r\n')[1], String(bytes)).toBe(
        JSON.stringify({
          status: 'error',
          message:
            'Malformed URL: characters beyond printable ASCII must be percent-encoded (UTF-8)',
        }),
      );
    }
  });

  it('accepts a JSON body that starts with a byte-order mark (the JSON parser skips it)', async () => {
    const login = await fetch(`${base}/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `\uFEFF${JSON.stringify({ username: 'admin', password: TEST_PASSWORD })}`,
    });
    expect(login.status).toBe(200);
  });
});

describe('the embedded store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'inventory-restart-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** One "start" of the service on a folder: open, migrate, seed, build. */
  async function start(first: boolean) {
    const store = await openStore<Database>({
      dataDir: dir,
      // The first start loads a freshly initialised cluster instead of paying initdb again.
      ...(first ? { loadDataDir: await pgliteTemplate() } : {}),
    });
    expect(store.kind).toBe('embedded');
    await migrate(store as unknown as Store<unknown>, MIGRATIONS_FOLDER);
    const created = await seedInitialAccounts(
      store.db,
      new PasswordHasher(TEST_HASHING),
      TEST_PASSWORD,
    );
    const app = await buildApp(testConfig({ dataDir: dir, databaseUrl: undefined }), { store });
    const login = await app.inject({
      method: 'POST',
      url: '/users/login',
      payload: { username: 'admin', password: TEST_PASSWORD },
    });
    const headers = { authorization: `Bearer ${login.json().token}` };
    return { app, store, created, headers };
  }

  it('keeps its data, accounts and schema across a restart', async () => {
    const first = await start(true);
    expect(first.created).toEqual(['admin', 'editor', 'viewer']);
    const created = await first.app.inject({
      method: 'POST',
      url: '/locations',
      headers: first.headers,
      payload: { name: 'Persistent DC', city: 'Oslo' },
    });
    expect(created.statusCode).toBe(201);
    await first.app.close();
    await first.store.close();

    const second = await start(false);
    try {
      // The accounts exist already: nothing is seeded (and no password printed) again.
      expect(second.created).toEqual([]);
      const read = await second.app.inject({
        method: 'GET',
        url: `/locations/${created.json().id}`,
        headers: second.headers,
      });
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(created.json());
    } finally {
      await second.app.close();
      await second.store.close();
    }
  });
});
