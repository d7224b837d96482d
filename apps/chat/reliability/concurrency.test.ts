import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../test/support/accounts.js';
import { Harness, listen, loginBody, postLogin } from '../test/support/harness.js';
import { distribution, report, scale, timed } from './support/measure.js';

/**
 * Concurrent first logins, over a listening server (real sockets), repeated with a new
 * account each round. The guarantees come from the database (one upsert on the (service,
 * provider_user_id) unique key, retried usernames on the username key), so this runs on both
 * stores: CI runs the suite on PGlite and on PostgreSQL.
 */
const SAME_ACCOUNT_LOGINS = 100;
const SAME_ACCOUNT_ROUNDS = scale(3, 10);
const CLASHING_ACCOUNTS = scale(25, 60);
const CLASH_ROUNDS = scale(3, 10);

let h: Harness;
let base: string;
const figures: Record<string, unknown> = {};

beforeAll(async () => {
  h = await Harness.open();
  const app: FastifyInstance = await h.app();
  base = await listen(app);
});
afterAll(async () => {
  report('concurrency', figures);
  await h?.close();
});

interface LoginAnswer {
  data: { userId: string; authToken: string; me: { username: string } };
}

async function loginAll(bodies: unknown[]) {
  return Promise.all(
    bodies.map(async (body) => {
      const { value, ms } = await timed(async () => {
        const response = await postLogin(base, body);
        return { status: response.status, answer: (await response.json()) as LoginAnswer };
      });
      return { ...value, ms };
    }),
  );
}

describe('concurrent logins', () => {
  it(`${SAME_ACCOUNT_LOGINS} concurrent first logins of one new account create exactly one user, every round`, async () => {
    const latencies: number[] = [];
    for (let round = 0; round < SAME_ACCOUNT_ROUNDS; round++) {
      const id = String(700_000 + round);
      const body = {
        ...loginBody('twitter', ''),
        ...accounts.twitter(h.fake, id, `Round_${round}`),
      };
      const outcomes = await loginAll(Array.from({ length: SAME_ACCOUNT_LOGINS }, () => body));
      latencies.push(...outcomes.map((outcome) => outcome.ms));
      expect(outcomes.map((outcome) => outcome.status)).toEqual(
        Array(SAME_ACCOUNT_LOGINS).fill(200),
      );
      expect(new Set(outcomes.map((outcome) => outcome.answer.data.userId)).size).toBe(1);
      expect(new Set(outcomes.map((outcome) => outcome.answer.data.authToken)).size).toBe(
        SAME_ACCOUNT_LOGINS,
      );
      const users = await h.store.db
        .selectFrom('users')
        .select(['id', 'username'])
        .where('provider_user_id', '=', id)
        .execute();
      expect(users).toEqual([{ id: outcomes[0]?.answer.data.userId, username: `round_${round}` }]);
      // 100 tokens issued, the newest 50 kept.
      const sessions = await h.store.db
        .selectFrom('sessions')
        .select('user_id')
        .where('user_id', '=', users[0]?.id ?? '')
        .execute();
      expect(sessions).toHaveLength(50);
    }
    const users = await sql<{ n: number }>`SELECT count(*)::int AS n FROM users`.execute(
      h.store.db,
    );
    figures.sameAccount = {
      rounds: SAME_ACCOUNT_ROUNDS,
      loginsPerRound: SAME_ACCOUNT_LOGINS,
      usersCreated: users.rows[0]?.n,
      latencyMs: distribution(latencies),
    };
    expect(users.rows[0]?.n).toBe(SAME_ACCOUNT_ROUNDS);
  });

  it(`${CLASHING_ACCOUNTS} concurrent first logins of different accounts with one handle get distinct usernames, every round`, async () => {
    const latencies: number[] = [];
    const usernames: string[] = [];
    for (let round = 0; round < CLASH_ROUNDS; round++) {
      // Twitter and GitHub accounts whose handles normalise to the same username.
      const handle = `clash.r${round}`;
      const bodies = Array.from({ length: CLASHING_ACCOUNTS }, (_, i) => ({
        ...loginBody(i % 2 === 0 ? 'twitter' : 'github', ''),
        ...(i % 2 === 0
          ? accounts.twitter(h.fake, String(10_000 * (round + 1) + i), handle.toUpperCase())
          : accounts.github(h.fake, 10_000 * (round + 1) + i, handle)),
      }));
      const outcomes = await loginAll(bodies);
      latencies.push(...outcomes.map((outcome) => outcome.ms));
      expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(CLASHING_ACCOUNTS).fill(200));
      const names = outcomes.map((outcome) => outcome.answer.data.me.username);
      expect(new Set(names).size).toBe(CLASHING_ACCOUNTS);
      expect(new Set(outcomes.map((outcome) => outcome.answer.data.userId)).size).toBe(
        CLASHING_ACCOUNTS,
      );
      expect(names).toContain(handle);
      for (const name of names) expect(name.startsWith(handle)).toBe(true);
      usernames.push(...names);
    }
    // What the database holds agrees with what was answered.
    const stored = await h.store.db
      .selectFrom('users')
      .select('username')
      .where('username', 'like', 'clash.r%')
      .execute();
    expect(stored.map((row) => row.username).sort()).toEqual([...usernames].sort());
    figures.clashingHandles = {
      rounds: CLASH_ROUNDS,
      accountsPerRound: CLASHING_ACCOUNTS,
      distinctUsernames: new Set(usernames).size,
      latencyMs: distribution(latencies),
    };
  });

  it('concurrent logouts of one token, GET and POST mixed, with and without an empty JSON body: 200, 401 or 429 only, and the token dies', async () => {
    const { data } = (await (
      await postLogin(base, {
        ...loginBody('github', ''),
        ...accounts.github(h.fake, 31_337, 'leaver'),
      })
    ).json()) as LoginAnswer;
    const headers = { 'x-user-id': data.userId, 'x-auth-token': data.authToken };
    const statuses = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const response = await fetch(`${base}/api/v1/logout`, {
          method: i % 2 === 0 ? 'POST' : 'GET',
          headers: i % 4 === 0 ? { ...headers, 'content-type': 'application/json' } : headers,
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    const me = await fetch(`${base}/api/v1/me`, { headers });
    figures.concurrentLogouts = {
      logouts: statuses.length,
      answered200: statuses.filter((status) => status === 200).length,
      answered401: statuses.filter((status) => status === 401).length,
      answered429: statuses.filter((status) => status === 429).length,
      meAfterwards: me.status,
    };
    // Each logout checks the token, then deletes it: every check that ran before the first delete
    // succeeds, so more than one may answer 200; later ones find a dead token (401), and past
    // LOGIN_LOCKOUT_ATTEMPTS such failures this address is locked for this user id (429).
    expect(statuses.filter((status) => ![200, 401, 429].includes(status))).toEqual([]);
    expect(statuses).toContain(200);
    // Dead (401), or refused before it is looked at, this address being locked for the id (429).
    expect([401, 429]).toContain(me.status);
  });
});
