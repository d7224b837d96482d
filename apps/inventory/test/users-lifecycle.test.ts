import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashResetCode } from '../src/users/password-reset.js';
import { login, startTestApp, type TestContext, unique } from './helpers.js';

const SMTP_DELAY_MS = 500;

/** A real SMTP server on a free port, keeping what it receives. */
async function startSmtpServer() {
  const messages: Array<{ to: string[]; raw: string }> = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A slow server: the API must not wait for it before answering.
      stream.on('end', () =>
        setTimeout(() => {
          messages.push({
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        }, SMTP_DELAY_MS),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The code's own line of the message (short lines: no quoted-printable wrapping). */
const CODE = /^ {4}([A-Za-z0-9_-]{43})\r?$/m;

async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('timed out');
}

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let ctx: TestContext;

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await startTestApp({
    mail: { smtpUrl: smtp.url, from: 'Inventory <noreply@inventory.test>' },
  });
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

async function newUser(password = 'first-password') {
  const username = unique('user');
  const email = `${username}@example.com`;
  const response = await ctx.as('admin', {
    method: 'POST',
    url: '/users',
    payload: { username, email, password, role: 'viewer' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return { id: response.json().id as string, username, email };
}

const forgot = (email: string) =>
  ctx.app.inject({ method: 'POST', url: '/users/forgot-password', payload: { email } });
const reset = (code: string, newPassword: string, confirmation = newPassword) =>
  ctx.app.inject({
    method: 'POST',
    url: `/users/reset-password/${code}`,
    payload: { new_password: newPassword, confirm_password: confirmation },
  });

describe('password reset by e-mail (SMTP)', () => {
  it('answers the same for known and unknown addresses; only the known one gets a code', async () => {
    const user = await newUser();
    const before = smtp.messages.length;
    const started = performance.now();
    const known = await forgot(user.email);
    // Answered before the e-mail went out (the same answer, in the same time, either way).
    expect(performance.now() - started).toBeLessThan(SMTP_DELAY_MS);
    expect(smtp.messages.length).toBe(before);
    const unknown = await forgot('nobody@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    const mail = await waitFor(() => smtp.messages.find((m) => m.to.includes(user.email)));
    expect(mail.raw).toContain('From: Inventory <noreply@inventory.test>');
    expect(smtp.messages.slice(before).map((m) => m.to)).toEqual([[user.email]]);
    // Stored hashed: the table holds the SHA-256 of the code, not the code.
    const code = CODE.exec(mail.raw)?.[1] ?? '';
    const stored = await ctx.store.db
      .selectFrom('password_reset_codes' as never)
      .select(['code_hash' as never])
      .execute();
    expect(stored).toContainEqual({ code_hash: hashResetCode(code) });
    expect(JSON.stringify(stored)).not.toContain(code);
  });

  it('the code sets the password once; earlier tokens stop working; the reset is audited', async () => {
    const user = await newUser();
    const oldToken = await login(ctx.app, user.username, 'first-password');
    const before = smtp.messages.length;
    await forgot(user.email);
    const mail = await waitFor(() =>
      smtp.messages.slice(before).find((m) => m.to.includes(user.email)),
    );
    const code = CODE.exec(mail.raw)?.[1] ?? '';

    const mismatch = await reset(code, 'second-password', 'something-else');
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toBe('Passwords do not match');
    const tooShort = await reset(code, 'short');
    expect(tooShort.statusCode).toBe(400);

    const done = await reset(code, 'second-password');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ status: 'success', message: 'Password has been reset' });
    expect((await reset(code, 'third-password')).json()).toEqual({
      status: 'error',
      message: 'Invalid or expired reset code',
    });

    const stale = await ctx.app.inject({
      url: `/users/${user.id}`,
      headers: { authorization: `Bearer ${oldToken}` },
    });
    expect(stale.statusCode).toBe(401);
    await login(ctx.app, user.username, 'second-password');

    const audit = await ctx.as('admin', {
      url: `/audit-logs?resource_id=${user.id}&action=password_reset`,
    });
    expect(audit.json().data).toHaveLength(1);
    expect(JSON.stringify(audit.json())).not.toContain('second-password');
  });

  it('refuses expired, unknown and malformed codes', async () => {
    const user = await newUser();
    const before = smtp.messages.length;
    await forgot(user.email);
    const mail = await waitFor(() =>
      smtp.messages.slice(before).find((m) => m.to.includes(user.email)),
    );
    const code = CODE.exec(mail.raw)?.[1] ?? '';
    await ctx.store.db
      .updateTable('password_reset_codes' as never)
      .set({ expires_at: new Date(Date.now() - 1000) } as never)
      .where('code_hash' as never, '=', hashResetCode(code) as never)
      .execute();
    expect((await reset(code, 'second-password')).statusCode).toBe(400);
    expect((await reset('A'.repeat(43), 'second-password')).statusCode).toBe(400);
    const malformed = await reset('short-code', 'second-password');
    expect(malformed.statusCode).toBe(400);
    expect((await forgot('not-an-address')).statusCode).toBe(400);
  });
});

describe('account events in the audit log', () => {
  it('records logins, failed logins, logouts and every user change', async () => {
    const user = await newUser();
    const token = await login(ctx.app, user.username, 'first-password');
    await ctx.app.inject({
      method: 'POST',
      url: '/users/login',
      payload: { username: user.username, password: 'wrong-password' },
    });
    await ctx.app.inject({
      method: 'POST',
      url: '/users/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    await ctx.as('admin', { method: 'PUT', url: `/users/${user.id}`, payload: { role: 'editor' } });
    await ctx.as('admin', {
      method: 'PUT',
      url: `/users/${user.id}/password`,
      payload: { new_password: 'changed-password' },
    });
    await ctx.as('admin', { method: 'DELETE', url: `/users/${user.id}` });

    const changes = await ctx.as('admin', {
      url: `/audit-logs?resource_type=users&resource_id=${user.id}&limit=100`,
    });
    const rows = changes.json<{ data: Array<Record<string, unknown>> }>().data;
    expect(rows.map((row) => row.action).reverse()).toEqual([
      'create',
      'update',
      'update',
      'delete',
    ]);
    const sessions = await ctx.as('admin', {
      url: `/audit-logs?resource_type=sessions&resource_id=${user.username}&limit=100`,
    });
    const events = sessions.json<{ data: Array<Record<string, unknown>> }>().data;
    expect(events.map((row) => [row.action, row.user_id]).reverse()).toEqual([
      ['login', user.id],
      ['login_failed', null],
      ['logout', user.id],
    ]);
    expect(JSON.stringify([...rows, ...events])).not.toMatch(
      /first-password|wrong-password|changed-password|argon2/,
    );

    const unknown = await ctx.app.inject({
      method: 'POST',
      url: '/users/login',
      payload: { username: 'ghost-user', password: 'whatever-1' },
    });
    expect(unknown.statusCode).toBe(401);
    const ghost = await ctx.as('admin', {
      url: '/audit-logs?action=login_failed&resource_id=ghost-user',
    });
    expect(ghost.json().data).toEqual([
      expect.objectContaining({ user_id: null, username: null, resource_type: 'sessions' }),
    ]);
  });

  it('lists users paged and sorted', async () => {
    await newUser();
    const page = await ctx.as('admin', { url: '/users?sortby=username:desc&limit=2' });
    expect(page.statusCode).toBe(200);
    const names = page.json().data.map((row: { username: string }) => row.username);
    expect(names).toEqual([...names].sort().reverse());
    expect(page.json().meta.limit).toBe(2);
    expect(page.json().meta.total_count).toBeGreaterThan(2);
  });
});

describe('password reset without SMTP: the outbox', () => {
  it('writes the message under DATA_DIR/outbox', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'inventory-outbox-'));
    const local = await startTestApp({ dataDir });
    try {
      const response = await local.app.inject({
        method: 'POST',
        url: '/users/forgot-password',
        payload: { email: 'viewer@inventory.invalid' },
      });
      expect(response.statusCode).toBe(200);
      const outbox = join(dataDir, 'outbox');
      const files = await waitFor(async () => {
        const names = await readdir(outbox).catch(() => []);
        return names.length > 0 ? names : undefined;
      });
      const message = await readFile(join(outbox, files[0] ?? ''), 'utf8');
      expect(message).toContain('To: viewer@inventory.invalid');
      expect(message).toMatch(CODE);
    } finally {
      await local.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
