import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { login, startTestApp, type TestContext, testConfig, unique } from '../helpers.js';
import { CODE_LINE, sleep, startSmtpServer, waitFor } from './support.js';

/**
 * Credentials' lifetimes and bounds, each once found broken by a hostile review: reactivation
 * revived old tokens, reset codes outlived what should end them, forgot-password was unthrottled
 * per account, and names were unique only case-sensitively.
 */
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let ctx: TestContext;

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await startTestApp({ mail: { smtpUrl: smtp.url, from: 'Inventory <noreply@test>' } });
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});
beforeEach(async () => {
  // Budgets are per account and per client address: each test starts with full ones.
  await ctx.store.scriptTransaction((tx) =>
    tx.exec(
      "DO $$ BEGIN IF to_regclass('account_throttle') IS NOT NULL THEN DELETE FROM account_throttle; END IF; END $$",
    ),
  );
});

const PASSWORD = 'first-password';

async function newUser(role: 'viewer' | 'editor' = 'viewer') {
  const username = unique('acct');
  const email = `${username}@example.com`;
  const created = await ctx.as('admin', {
    method: 'POST',
    url: '/users',
    payload: { username, email, password: PASSWORD, role },
  });
  expect(created.statusCode, created.body).toBe(201);
  const token = await login(ctx.app, username, PASSWORD);
  return { id: created.json().id as string, username, email, token };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const forgot = (email: string, remoteAddress = '127.0.0.1', app = ctx.app) =>
  app.inject({ method: 'POST', url: '/users/forgot-password', payload: { email }, remoteAddress });
const redeem = (code: string, password = 'a-new-password-1') =>
  ctx.app.inject({
    method: 'POST',
    url: `/users/reset-password/${code}`,
    payload: { new_password: password, confirm_password: password },
  });

/** Asks for a code for `email` and returns it from the message the SMTP server received. */
async function mailedCode(email: string): Promise<string> {
  const before = smtp.to(email).length;
  expect((await forgot(email)).statusCode).toBe(200);
  const message = await waitFor(() => smtp.to(email)[before]);
  return CODE_LINE.exec(message.raw)?.[1] ?? '';
}

const setStatus = (id: string, inactive: boolean) =>
  ctx.as('admin', { method: 'PUT', url: `/users/${id}`, payload: { inactive_status: inactive } });

describe('tokens issued before a deactivation stay dead after reactivation (found revived by a hostile review)', () => {
  it('refuses the old token after reactivation; a new login works', async () => {
    const user = await newUser();
    expect(
      (await ctx.app.inject({ url: '/devices', headers: bearer(user.token) })).statusCode,
    ).toBe(200);
    expect((await setStatus(user.id, true)).statusCode).toBe(200);
    const inactive = await ctx.app.inject({ url: '/devices', headers: bearer(user.token) });
    expect(inactive.json()).toEqual({ status: 'error', message: 'Account is inactive' });
    expect((await setStatus(user.id, false)).statusCode).toBe(200);
    const revived = await ctx.app.inject({ url: '/devices', headers: bearer(user.token) });
    expect(revived.statusCode, revived.body).toBe(401);
    expect(revived.json().message).toBe('Unauthorized: Token no longer valid');
    const fresh = await login(ctx.app, user.username, PASSWORD);
    expect((await ctx.app.inject({ url: '/devices', headers: bearer(fresh) })).statusCode).toBe(
      200,
    );
  });

  it('also when the deactivation was made by plain SQL', async () => {
    const user = await newUser();
    await ctx.store.db
      .updateTable('users')
      .set({ inactive_status: true })
      .where('id', '=', user.id)
      .execute();
    await ctx.store.db
      .updateTable('users')
      .set({ inactive_status: false })
      .where('id', '=', user.id)
      .execute();
    ctx.app.userCache.forget(user.id);
    const revived = await ctx.app.inject({ url: '/devices', headers: bearer(user.token) });
    expect(revived.statusCode, revived.body).toBe(401);
  });
});

describe('what ends a pending reset code (found outliving it by a hostile review)', () => {
  /** Each way a pending code must end: the change, then the password the owner signs in with. */
  const endings: {
    name: string;
    change(user: Awaited<ReturnType<typeof newUser>>): Promise<unknown>;
    password: string;
  }[] = [
    {
      name: 'a password change by the owner',
      password: 'owner-chose-this-1',
      change: (user) =>
        ctx.app.inject({
          method: 'PUT',
          url: `/users/${user.id}/password`,
          headers: bearer(user.token),
          payload: { new_password: 'owner-chose-this-1' },
        }),
    },
    {
      name: 'a change of e-mail address',
      password: PASSWORD,
      change: (user) =>
        ctx.app.inject({
          method: 'PUT',
          url: `/users/${user.id}`,
          headers: bearer(user.token),
          payload: { email: `moved-${user.email}` },
        }),
    },
    {
      name: 'a deactivation, even once the account is active again',
      password: PASSWORD,
      change: async (user) => {
        expect((await setStatus(user.id, true)).statusCode).toBe(200);
        return setStatus(user.id, false);
      },
    },
  ];

  it.each(endings)('$name', async ({ change, password }) => {
    const user = await newUser();
    const code = await mailedCode(user.email);
    const changed = (await change(user)) as { statusCode: number; body: string };
    expect(changed.statusCode, changed.body).toBe(200);
    const used = await redeem(code);
    expect(used.statusCode, used.body).toBe(400);
    expect(used.json().message).toBe('Invalid or expired reset code');
    await login(ctx.app, user.username, password);
  });

  it('redeeming refuses an inactive account, whatever the code table holds', async () => {
    const user = await newUser();
    const code = await mailedCode(user.email);
    // Deactivated behind the API's back, its code put back: the redemption itself must refuse.
    const [stored] = await ctx.store.db
      .selectFrom('password_reset_codes')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    await ctx.store.db
      .updateTable('users')
      .set({ inactive_status: true })
      .where('id', '=', user.id)
      .execute();
    if (stored) {
      await ctx.store.db
        .insertInto('password_reset_codes')
        .values(stored)
        .onConflict((c) => c.doNothing())
        .execute();
    }
    const used = await redeem(code);
    expect(used.statusCode, used.body).toBe(400);
    await ctx.store.db
      .updateTable('users')
      .set({ inactive_status: false })
      .where('id', '=', user.id)
      .execute();
    ctx.app.userCache.forget(user.id);
    // The password did not change.
    await login(ctx.app, user.username, PASSWORD);
  });
});

describe('forgot-password is bounded per account and per client (found unthrottled by a hostile review)', () => {
  /** Waits until the work of earlier requests has settled: a control address gets its mail. */
  async function settle() {
    const control = await newUser();
    await forgot(control.email, '198.51.100.250');
    await waitFor(() => smtp.to(control.email)[0]);
    await sleep(150);
  }

  it('sends an account at most 3 messages per RESET_TTL, from any mix of clients and instances', async () => {
    const user = await newUser();
    const second = await buildApp(testConfig({ mail: { smtpUrl: smtp.url, from: 'x <x@test>' } }), {
      store: ctx.store,
    });
    try {
      for (let i = 0; i < 8; i++) {
        const answer = await forgot(
          user.email,
          `203.0.113.${i + 1}`,
          i % 2 === 0 ? ctx.app : second,
        );
        expect(answer.statusCode).toBe(200);
        expect(answer.json().message).toContain('If an account with this e-mail address exists');
      }
      await waitFor(() => (smtp.to(user.email).length >= 3 ? true : undefined));
      await settle();
      expect(smtp.to(user.email)).toHaveLength(3);
    } finally {
      await second.close();
    }
    // The codes of the messages sent all still work: the owner is never left without one.
    const codes = smtp.to(user.email).map((m) => CODE_LINE.exec(m.raw)?.[1] ?? '');
    expect((await redeem(codes[2] ?? '')).statusCode).toBe(200);
  });

  it('sends one client address at most 10 messages per RESET_TTL', async () => {
    const users: Array<Awaited<ReturnType<typeof newUser>>> = [];
    for (let i = 0; i < 12; i++) users.push(await newUser());
    for (const user of users) expect((await forgot(user.email, '192.0.2.77')).statusCode).toBe(200);
    const sent = () => users.filter((user) => smtp.to(user.email).length > 0).length;
    await waitFor(() => (sent() >= 10 ? true : undefined));
    await settle();
    expect(sent()).toBe(10);
  });

  it('matches the address regardless of letter case', async () => {
    const user = await newUser();
    await forgot(user.email.toUpperCase(), '192.0.2.78');
    await waitFor(() => smtp.to(user.email)[0]);
  });

  it('purges expired codes', async () => {
    const user = await newUser();
    await ctx.store.db
      .insertInto('password_reset_codes')
      .values(
        Array.from({ length: 5 }, (_, i) => ({
          code_hash: `expired-${user.id}-${i}`,
          user_id: user.id,
          expires_at: new Date(Date.now() - 60_000),
        })),
      )
      .execute();
    await mailedCode(user.email);
    const left = await ctx.store.db
      .selectFrom('password_reset_codes')
      .select('code_hash')
      .where('expires_at', '<=', new Date())
      .execute();
    expect(left).toEqual([]);
  });
});

describe('usernames and e-mail addresses are unique regardless of letter case (found case-sensitive by a hostile review)', () => {
  it('refuses Admin and ADMIN@… to an admin creating an account', async () => {
    const admin = await ctx.as('admin', {
      method: 'POST',
      url: '/users',
      payload: { username: 'Admin', email: 'someone@example.com', password: PASSWORD },
    });
    expect(admin.statusCode, admin.body).toBe(409);
    expect(admin.json().message).toBe('Username already exists');
    const email = await ctx.as('admin', {
      method: 'POST',
      url: '/users',
      payload: { username: unique('x'), email: 'ADMIN@inventory.invalid', password: PASSWORD },
    });
    expect(email.statusCode, email.body).toBe(409);
    expect(email.json().message).toBe('Email already exists');
  });

  it('refuses a viewer renaming themselves Admin or taking ADMIN@…; the audit keeps the real name', async () => {
    const user = await newUser();
    for (const payload of [{ username: 'Admin' }, { email: 'ADMIN@INVENTORY.INVALID' }]) {
      const renamed = await ctx.app.inject({
        method: 'PUT',
        url: `/users/${user.id}`,
        headers: bearer(user.token),
        payload,
      });
      expect(renamed.statusCode, renamed.body).toBe(409);
    }
    // A change of one's own name's letter case is not a clash.
    const own = await ctx.app.inject({
      method: 'PUT',
      url: `/users/${user.id}`,
      headers: bearer(user.token),
      payload: { username: user.username.toUpperCase() },
    });
    expect(own.statusCode, own.body).toBe(200);
  });

  it('bounds how many taken names a non-admin may try: 5 an hour, then 429', async () => {
    const user = await newUser();
    const tries = [];
    for (let i = 0; i < 7; i++) {
      const answer = await ctx.app.inject({
        method: 'PUT',
        url: `/users/${user.id}`,
        headers: bearer(user.token),
        payload: { username: i % 2 === 0 ? 'EDITOR' : 'Viewer' },
      });
      tries.push(answer.statusCode);
    }
    expect(tries).toEqual([409, 409, 409, 409, 409, 429, 429]);
    // Once spent, a free name is refused too: otherwise 429 versus 200 would answer the question.
    const free = await ctx.app.inject({
      method: 'PUT',
      url: `/users/${user.id}`,
      headers: bearer(user.token),
      payload: { username: unique('free') },
    });
    expect(free.statusCode, free.body).toBe(429);
    // Changes that name no username or e-mail still go through.
    const other = await ctx.app.inject({
      method: 'PUT',
      url: `/users/${user.id}`,
      headers: bearer(user.token),
      payload: { role: 'viewer' },
    });
    expect(other.statusCode, other.body).toBe(200);
    // Admins are not bounded (they list every account anyway).
    for (let i = 0; i < 7; i++) {
      const answer = await ctx.as('admin', {
        method: 'PUT',
        url: `/users/${user.id}`,
        payload: { username: 'EDITOR' },
      });
      expect(answer.statusCode).toBe(409);
    }
  });
});
