import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, startTestApp, type TestContext } from '../helpers.js';

/**
 * There is always an active admin: deleting, deactivating or demoting the last one is refused
 * with 409, whatever writes it (the API, plain SQL), and two admins removing each other at once
 * leave one.
 */
const LAST_ADMIN =
  'The last active admin cannot be deleted, deactivated or demoted: make another account an active admin first';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({}, { poolSize: 10 });
});
afterAll(() => ctx?.close());

const activeAdmins = async () =>
  (
    await sql<{
      id: string;
    }>`SELECT id FROM users WHERE role = 'admin' AND NOT inactive_status`.execute(ctx.store.db)
  ).rows.map((row) => row.id);

/** Leaves the seeded `admin` as the only active admin. */
const onlySeededAdmin = async () => {
  await sql`DELETE FROM users WHERE role = 'admin' AND username <> 'admin'`.execute(ctx.store.db);
  await sql`UPDATE users SET role = 'admin', inactive_status = false WHERE username = 'admin'`.execute(
    ctx.store.db,
  );
};

describe('the last active admin', () => {
  it('cannot delete, deactivate or demote itself (409), and stays able to log in', async () => {
    await onlySeededAdmin();
    const [adminId] = await activeAdmins();
    const attempts = [
      { method: 'DELETE' as const, url: `/users/${adminId}` },
      { method: 'PUT' as const, url: `/users/${adminId}`, payload: { role: 'editor' } },
      { method: 'PUT' as const, url: `/users/${adminId}`, payload: { inactive_status: true } },
    ];
    for (const attempt of attempts) {
      const response = await ctx.as('admin', attempt);
      expect(response.statusCode, `${attempt.method} ${response.body}`).toBe(409);
      expect(response.json()).toEqual({ status: 'error', message: LAST_ADMIN });
    }
    expect(await activeAdmins()).toEqual([adminId]);
    const still = await ctx.as('admin', { method: 'GET', url: '/users' });
    expect(still.statusCode).toBe(200);
  });

  it('may be removed once another admin is active; a deactivated admin does not count', async () => {
    await onlySeededAdmin();
    const [adminId] = await activeAdmins();
    const other = await makeUser(ctx, 'admin', 'second');
    await sql`UPDATE users SET inactive_status = true WHERE id = ${other.id}`.execute(ctx.store.db);
    const refused = await ctx.as('admin', {
      method: 'PUT',
      url: `/users/${adminId}`,
      payload: { role: 'viewer' },
    });
    expect(refused.statusCode).toBe(409);
    await sql`UPDATE users SET inactive_status = false WHERE id = ${other.id}`.execute(
      ctx.store.db,
    );
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/users/${other.id}`,
      headers: { authorization: `Bearer ${ctx.tokens.admin}` },
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await activeAdmins()).toEqual([adminId]);
  });

  it('holds for every write path: plain SQL removing every admin is refused', async () => {
    await onlySeededAdmin();
    await makeUser(ctx, 'admin', 'sql');
    await expect(sql`DELETE FROM users WHERE role = 'admin'`.execute(ctx.store.db)).rejects.toThrow(
      /last active admin/,
    );
    await expect(
      sql`UPDATE users SET role = 'viewer' WHERE role = 'admin'`.execute(ctx.store.db),
    ).rejects.toThrow(/last active admin/);
    expect(await activeAdmins()).toHaveLength(2);
  });

  // Last: it deletes the seeded admin, whose token the other tests use.
  it('leaves one active admin when two admins delete each other at the same moment', async () => {
    const trials = process.env.TEST_DATABASE_URL ? 10 : 3;
    for (let trial = 0; trial < trials; trial++) {
      const first = await makeUser(ctx, 'admin', 'race-a');
      const second = await makeUser(ctx, 'admin', 'race-b');
      await sql`DELETE FROM users WHERE role = 'admin' AND id NOT IN (${first.id}, ${second.id})`.execute(
        ctx.store.db,
      );
      const answers = await Promise.all(
        [
          [first, second],
          [second, first],
        ].map(([actor, target]) =>
          ctx.app.inject({
            method: 'DELETE',
            url: `/users/${target?.id}`,
            headers: { authorization: `Bearer ${actor?.token}` },
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses, answers.map((answer) => answer.body).join(' ')).toContain(204);
      expect(await activeAdmins(), `trial ${trial}: ${statuses}`).toHaveLength(1);
    }
  });
});
