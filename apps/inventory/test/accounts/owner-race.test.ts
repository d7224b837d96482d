import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, startTestApp, type TestContext } from '../helpers.js';

/**
 * Found by a hostile review: an owner repeating `PUT /users/{own id}` with their current role and
 * status (which the owner check allows) while an admin demotes and deactivates them must never
 * write the old values back. The owner's requests and the admin's run concurrently through the
 * pool (several PostgreSQL connections on the PostgreSQL pass; PGlite interleaves the handlers'
 * statements on its one connection); after each trial the row must hold what the admin set.
 */
const TRIALS = process.env.TEST_DATABASE_URL ? 20 : 5;
/** Owner requests kept in flight at once during a trial. */
const OWNER_CONCURRENCY = 6;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({}, { poolSize: 10 });
});
afterAll(() => ctx?.close());

async function trial(): Promise<{ reverted: boolean; ownerRequests: number }> {
  const owner = await makeUser(ctx, 'editor', 'race');
  let stop = false;
  let ownerRequests = 0;
  const ownerLoop = async () => {
    // Bounded, and yielding to timers: a refused request can resolve without any I/O.
    for (let i = 0; i < 300 && !stop; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      ownerRequests++;
      await ctx.app.inject({
        method: 'PUT',
        url: `/users/${owner.id}`,
        headers: { authorization: `Bearer ${owner.token}` },
        payload: { role: 'editor', inactive_status: false },
      });
    }
  };
  const loops = Array.from({ length: OWNER_CONCURRENCY }, ownerLoop);
  await new Promise((resolve) => setTimeout(resolve, 15));
  const demoted = await ctx.as('admin', {
    method: 'PUT',
    url: `/users/${owner.id}`,
    payload: { role: 'viewer', inactive_status: true },
  });
  expect(demoted.statusCode, demoted.body).toBe(200);
  // Let the owner's requests already past the guard finish.
  await new Promise((resolve) => setTimeout(resolve, 30));
  stop = true;
  await Promise.all(loops);
  const row = await ctx.store.db
    .selectFrom('users')
    .select(['role', 'inactive_status'])
    .where('id', '=', owner.id)
    .executeTakeFirstOrThrow();
  return { reverted: row.role !== 'viewer' || !row.inactive_status, ownerRequests };
}

describe('an owner cannot undo an admin’s demotion (race)', () => {
  it(`keeps the admin’s role and status in ${TRIALS} of ${TRIALS} trials`, async () => {
    let reverted = 0;
    let requests = 0;
    for (let i = 0; i < TRIALS; i++) {
      const outcome = await trial();
      if (outcome.reverted) reverted++;
      requests += outcome.ownerRequests;
    }
    console.log(
      `[inventory-accounts] owner race: ${reverted} of ${TRIALS} trials reverted, ${requests} owner requests`,
    );
    expect(reverted).toBe(0);
  }, 120_000);

  it('still lets an owner send back their current role and status, and refuses a change', async () => {
    const owner = await makeUser(ctx, 'editor', 'same');
    const headers = { authorization: `Bearer ${owner.token}` };
    const same = await ctx.app.inject({
      method: 'PUT',
      url: `/users/${owner.id}`,
      headers,
      payload: { role: 'editor', inactive_status: false, email: `${owner.username}@new.test` },
    });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ role: 'editor', email: `${owner.username}@new.test` });
    // The audit row names only what the owner could change.
    const audit = await ctx.store.db
      .selectFrom('audit_logs')
      .select('changes')
      .where('resource_id', '=', owner.id)
      .where('action', '=', 'update')
      .executeTakeFirstOrThrow();
    // As {field: [old, new]}, role and status (sent unchanged) not among them.
    expect(audit.changes).toEqual({ email: [expect.any(String), `${owner.username}@new.test`] });
    for (const payload of [{ role: 'admin' }, { inactive_status: true }]) {
      const refused = await ctx.app.inject({
        method: 'PUT',
        url: `/users/${owner.id}`,
        headers,
        payload,
      });
      expect(refused.statusCode, refused.body).toBe(403);
    }
  });
});
