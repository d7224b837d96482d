import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_GLOBAL_FACTOR } from '../src/auth/lockout.js';
import { accounts } from '../test/support/accounts.js';
import { APPS } from '../test/support/fake-provider.js';
import { Harness, login, loginBody, logout, me } from '../test/support/harness.js';
import { report, scale } from './support/measure.js';

/**
 * Tokens: guessing is locked out (measured: N guesses -> how many were answered 401 before
 * the first 429, one after the other and all at once); an expired or logged-out token never works
 * again (a model-based property test over random sequences of login, logout, clock moves and use);
 * the database holds only hashes (every table read back).
 */
const GUESSES = scale(50, 500);
const ATTEMPTS = 5;
const figures: Record<string, unknown> = {};

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(async () => {
  report('tokens', figures);
  await h?.close();
});

/** How a run of guesses was answered: 401s before the first 429, and the totals. */
function tally(statuses: number[]) {
  const firstLocked = statuses.indexOf(429);
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return {
    guesses: statuses.length,
    answered401BeforeFirst429: firstLocked < 0 ? statuses.length : firstLocked,
    statuses: counts,
  };
}

const wrongToken = (i: number) => createHash('sha256').update(`guess ${i}`).digest('base64url');

async function githubSession(app: FastifyInstance) {
  const response = await login(app, { ...loginBody('github', ''), ...accounts.github(h.fake) });
  expect(response.statusCode).toBe(200);
  const { data } = response.json();
  return { userId: data.userId as string, token: data.authToken as string };
}

describe('guessing is locked out', () => {
  it(`session tokens: ${GUESSES} guesses one after the other`, async () => {
    const app = await h.app({ lockout: { attempts: ATTEMPTS, seconds: 300 } });
    const session = await githubSession(app);
    const statuses: number[] = [];
    for (let i = 0; i < GUESSES; i++)
      statuses.push((await me(app, session.userId, wrongToken(i))).statusCode);
    const rightTokenWhileLocked = (await me(app, session.userId, session.token)).statusCode;
    h.advance(301);
    const rightTokenAfterLock = (await me(app, session.userId, session.token)).statusCode;
    figures.sessionGuessesSequential = {
      ...tally(statuses),
      rightTokenWhileLocked,
      rightTokenAfterLock,
    };
    expect(statuses).toEqual([
      ...Array(ATTEMPTS).fill(401),
      ...Array(GUESSES - ATTEMPTS).fill(429),
    ]);
    expect(rightTokenWhileLocked).toBe(429);
    expect(rightTokenAfterLock).toBe(200);
  });

  it(`session tokens: ${GUESSES} guesses at once`, async () => {
    const app = await h.app({ lockout: { attempts: ATTEMPTS, seconds: 300 } });
    const session = await githubSession(app);
    const responses = await Promise.all(
      Array.from({ length: GUESSES }, (_, i) => me(app, session.userId, wrongToken(i))),
    );
    const statuses = responses.map((response) => response.statusCode);
    const counts = tally(statuses);
    figures.sessionGuessesConcurrent = counts;
    expect(counts.statuses[401]).toBeLessThanOrEqual(ATTEMPTS);
    expect((counts.statuses[401] ?? 0) + (counts.statuses[429] ?? 0)).toBe(GUESSES);
    expect((await me(app, session.userId, session.token)).statusCode).toBe(429);
  });

  it(`login: ${GUESSES} guesses of a Twitter token secret, one after the other and at once`, async () => {
    const app = await h.app({ lockout: { attempts: ATTEMPTS, seconds: 300 } });
    const guess = (credentials: ReturnType<typeof accounts.twitter>, i: number) =>
      login(
        app,
        { ...loginBody('twitter', ''), ...credentials, accessTokenSecret: `guess-${i}` },
        `10.9.${i >> 8}.${i & 255}`,
      );

    const sequential = accounts.twitter(h.fake, '4001', 'seq');
    const statuses: number[] = [];
    for (let i = 0; i < GUESSES; i++) statuses.push((await guess(sequential, i)).statusCode);
    const providerCallsSequential = h.fake.calls.length;

    h.fake.calls.length = 0;
    const concurrent = accounts.twitter(h.fake, '4002', 'conc');
    const responses = await Promise.all(
      Array.from({ length: GUESSES }, (_, i) => guess(concurrent, i)),
    );
    const concurrentCounts = tally(responses.map((response) => response.statusCode));
    const providerCallsConcurrent = h.fake.calls.length;

    const right = await login(app, { ...loginBody('twitter', ''), ...concurrent });
    figures.loginGuesses = {
      sequential: { ...tally(statuses), providerCalls: providerCallsSequential },
      concurrent: { ...concurrentCounts, providerCalls: providerCallsConcurrent },
      rightSecretWhileLocked: right.statusCode,
    };
    expect(statuses).toEqual([
      ...Array(ATTEMPTS).fill(401),
      ...Array(GUESSES - ATTEMPTS).fill(429),
    ]);
    expect(providerCallsSequential).toBe(ATTEMPTS);
    expect(concurrentCounts.statuses[401]).toBeLessThanOrEqual(ATTEMPTS);
    expect(providerCallsConcurrent).toBeLessThanOrEqual(ATTEMPTS);
    expect(right.statusCode).toBe(429);
  });
});

/** Guesses are counted per (user id, address), plus a global bound. */
const ADDRESSES = scale(20, 200);
describe('guessing from many addresses (anyone who knew a user id could lock that user out)', () => {
  it(`${ADDRESSES} addresses x ${ATTEMPTS + 3} guesses each: bounded, and the owner's token keeps working`, async () => {
    const app = await h.app({ lockout: { attempts: ATTEMPTS, seconds: 300 } });
    const session = await githubSession(app);
    const statuses: number[] = [];
    let ownerAnswers = 0;
    for (let address = 0; address < ADDRESSES; address++) {
      for (let i = 0; i < ATTEMPTS + 3; i++) {
        const response = await app.inject({
          method: 'GET',
          url: '/api/v1/me',
          headers: { 'x-user-id': session.userId, 'x-auth-token': wrongToken(address * 100 + i) },
          remoteAddress: `203.0.${address >> 8}.${address & 255}`,
        });
        statuses.push(response.statusCode);
      }
      // The owner, at its own address, between the attacker's rounds.
      if ((await me(app, session.userId, session.token)).statusCode === 200) ownerAnswers++;
    }
    const counts = tally(statuses);
    const evaluated = counts.statuses[401] ?? 0;
    // Up to the global bound every address gets ATTEMPTS; past it, one each.
    const bound = ATTEMPTS * SESSION_GLOBAL_FACTOR + ADDRESSES;
    figures.sessionGuessesManyAddresses = {
      addresses: ADDRESSES,
      guesses: statuses.length,
      answered401: evaluated,
      answered429: counts.statuses[429] ?? 0,
      bound,
      ownerAnswered200: `${ownerAnswers} of ${ADDRESSES}`,
    };
    expect(evaluated).toBeLessThanOrEqual(bound);
    expect(ownerAnswers).toBe(ADDRESSES);
  });

  it('a forged X-Forwarded-For behind a trusted proxy does not buy more guesses', async () => {
    const app = await h.app({ trustProxy: ['10.0.0.1'], lockout: { attempts: ATTEMPTS } });
    const session = await githubSession(app);
    const statuses: number[] = [];
    for (let i = 0; i < GUESSES; i++) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/v1/me',
        headers: {
          'x-user-id': session.userId,
          'x-auth-token': wrongToken(i),
          // What the client wrote, then what the proxy saw.
          'x-forwarded-for': `9.9.${i >> 8}.${i & 255}, 198.51.100.77`,
        },
        remoteAddress: '10.0.0.1',
      });
      statuses.push(response.statusCode);
    }
    figures.forgedForwardedFor = tally(statuses);
    expect(statuses).toEqual([
      ...Array(ATTEMPTS).fill(401),
      ...Array(GUESSES - ATTEMPTS).fill(429),
    ]);
  });

  it('a flood of random user ids larger than the lock-out table does not lift a lock', async () => {
    const maxKeys = 200;
    const app = await h.app({ lockout: { attempts: ATTEMPTS, maxKeys } });
    const session = await githubSession(app);
    for (let i = 0; i < ATTEMPTS; i++) await me(app, session.userId, wrongToken(i));
    expect((await me(app, session.userId, session.token)).statusCode).toBe(429);
    const flood = await Promise.all(
      Array.from({ length: maxKeys * 3 }, (_, i) =>
        app.inject({
          method: 'GET',
          url: '/api/v1/me',
          headers: { 'x-user-id': `flood-${i}`, 'x-auth-token': 'x' },
          remoteAddress: `10.7.${i >> 8}.${i & 255}`,
        }),
      ),
    );
    const counts = tally(flood.map((response) => response.statusCode));
    const lockHeld = (await me(app, session.userId, session.token)).statusCode;
    figures.lockoutTableFlood = { maxKeys, flood: counts, lockedUserAfterFlood: lockHeld };
    expect(Object.keys(counts.statuses).sort()).toEqual(['401', '429']);
    expect(lockHeld).toBe(429);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.skipIf(!redisUrl)('with Redis (TEST_REDIS_URL): two instances share the budget', () => {
  it(`${GUESSES} concurrent guesses spread over two instances get at most ${ATTEMPTS} answers 401`, async () => {
    const redis = new Redis(redisUrl ?? '', { maxRetriesPerRequest: 1 });
    try {
      const policy = { lockout: { attempts: ATTEMPTS, seconds: 300 } };
      const instances = [await h.app(policy, redis), await h.app(policy, redis)];
      // A user id of its own per run: the Redis may be shared with other suites and earlier runs.
      const session = await githubSession(instances[0] as FastifyInstance);
      const guesses = Array.from({ length: GUESSES }, (_, i) =>
        me(instances[i % 2] as FastifyInstance, session.userId, wrongToken(i)),
      );
      const counts = tally((await Promise.all(guesses)).map((response) => response.statusCode));
      figures.sessionGuessesConcurrentTwoInstancesRedis = counts;
      expect(counts.statuses[401]).toBe(ATTEMPTS);
      expect(counts.statuses[429]).toBe(GUESSES - ATTEMPTS);
    } finally {
      redis.disconnect();
    }
  });

  it('the global bound over addresses is shared too, and the owner keeps working', async () => {
    const redis = new Redis(redisUrl ?? '', { maxRetriesPerRequest: 1 });
    try {
      const instances = [await h.app({}, redis), await h.app({}, redis)];
      const session = await githubSession(instances[0] as FastifyInstance);
      const statuses: number[] = [];
      for (let address = 0; address < SESSION_GLOBAL_FACTOR + 2; address++) {
        for (let i = 0; i < ATTEMPTS; i++) {
          const response = await (instances[(address + i) % 2] as FastifyInstance).inject({
            method: 'GET',
            url: '/api/v1/me',
            headers: { 'x-user-id': session.userId, 'x-auth-token': wrongToken(address * 10 + i) },
            remoteAddress: `203.0.113.${address}`,
          });
          statuses.push(response.statusCode);
        }
      }
      const counts = tally(statuses);
      figures.sessionGuessesManyAddressesTwoInstancesRedis = counts;
      // 10 addresses x 5 reach the bound; the next two addresses get one guess each.
      expect(counts.statuses[401]).toBe(ATTEMPTS * SESSION_GLOBAL_FACTOR + 2);
      expect(
        (await me(instances[1] as FastifyInstance, session.userId, session.token)).statusCode,
      ).toBe(200);
    } finally {
      redis.disconnect();
    }
  });
});

/**
 * The model: every token issued, with its user and its end; a token works exactly while it is
 * neither logged out nor past its end, and once dead it stays dead. The lock-out is set out of
 * reach here (wrong tokens are most of what the commands send); the tests above cover it.
 */
interface Issued {
  userIndex: number;
  userId: string;
  token: string;
  endsAt: number;
  loggedOut: boolean;
}
interface Model {
  issued: Issued[];
  /** Tokens seen refused after they died: they must stay refused. */
  dead: Set<string>;
}
interface Real {
  app: FastifyInstance;
  credentials: ReturnType<typeof accounts.github>[];
}

const CAP_SECONDS = 1_800;
const USERS = 3;

const alive = (model: Model, issued: Issued) =>
  !issued.loggedOut && h.clock < issued.endsAt && !model.dead.has(issued.token);

const pick = (model: Model, index: number) =>
  model.issued.length === 0 ? undefined : model.issued[index % model.issued.length];

class LoginCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly userIndex: number,
    readonly expiresIn: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const credentials = real.credentials[this.userIndex];
    const response = await login(real.app, {
      ...loginBody('github', '', { expiresIn: this.expiresIn }),
      ...credentials,
    });
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    model.issued.push({
      userIndex: this.userIndex,
      userId: data.userId,
      token: data.authToken,
      endsAt: h.clock + Math.min(this.expiresIn, CAP_SECONDS) * 1000,
      loggedOut: false,
    });
  }
  toString = () => `login(user ${this.userIndex}, expiresIn ${this.expiresIn})`;
}

class UseCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly index: number,
    readonly asOtherUser: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.issued.length > 0;
  async run(model: Model, real: Real) {
    const issued = pick(model, this.index);
    if (!issued) return;
    const other = model.issued.find((candidate) => candidate.userIndex !== issued.userIndex);
    const userId = this.asOtherUser && other ? other.userId : issued.userId;
    const works = userId === issued.userId && alive(model, issued);
    const response = await me(real.app, userId, issued.token);
    expect(response.statusCode, `${this}`).toBe(works ? 200 : 401);
    if (!works && userId === issued.userId) model.dead.add(issued.token);
  }
  toString = () => `use(#${this.index}${this.asOtherUser ? ', as another user' : ''})`;
}

class LogoutCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = (model: Readonly<Model>) => model.issued.length > 0;
  async run(model: Model, real: Real) {
    const issued = pick(model, this.index);
    if (!issued) return;
    const works = alive(model, issued);
    const response = await logout(real.app, issued.userId, issued.token);
    expect(response.statusCode, `${this}`).toBe(works ? 200 : 401);
    issued.loggedOut = true;
    model.dead.add(issued.token);
  }
  toString = () => `logout(#${this.index})`;
}

class ClockCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly seconds: number) {}
  check = () => true;
  async run() {
    h.advance(this.seconds);
  }
  toString = () => `advance(${this.seconds} s)`;
}

describe('an expired or logged-out token never works again', () => {
  it('holds over random sequences of login, logout, clock moves and use (model-based)', async () => {
    const app = await h.app({
      loginExpirationSeconds: CAP_SECONDS,
      lockout: { attempts: 1_000_000, seconds: 1 },
    });
    const credentials = Array.from({ length: USERS }, (_, i) =>
      accounts.github(h.fake, 9_000 + i, `model${i}`),
    );
    const commands = [
      fc
        .tuple(fc.nat(USERS - 1), fc.integer({ min: 1, max: 2 * CAP_SECONDS }))
        .map(([user, expiresIn]) => new LoginCommand(user, expiresIn)),
      fc.tuple(fc.nat(), fc.boolean()).map(([index, other]) => new UseCommand(index, other)),
      fc.tuple(fc.nat(), fc.constant(false)).map(([index]) => new UseCommand(index, false)),
      fc.nat().map((index) => new LogoutCommand(index)),
      // Small steps cross token ends one by one, large ones several at once.
      fc
        .oneof(fc.integer({ min: 1, max: 120 }), fc.integer({ min: 100, max: 2 * CAP_SECONDS }))
        .map((seconds) => new ClockCommand(seconds)),
    ];
    let runs = 0;
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 30, size: '+1' }), async (sequence) => {
        runs++;
        steps += [...sequence].length;
        const model: Model = { issued: [], dead: new Set() };
        await fc.asyncModelRun(() => ({ model, real: { app, credentials } }), sequence);
      }),
      { numRuns: scale(30, 400), seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
    );
    figures.tokenLifecycleModel = { runs, commands: steps, users: USERS, capSeconds: CAP_SECONDS };
  });
});

describe('the database holds only hashes', () => {
  it('no table holds an issued token or a credential; every session row is the SHA-256 of a live token', async () => {
    const app = await h.app();
    const issued: { userId: string; token: string }[] = [];
    const secrets: string[] = Object.values(APPS).flatMap((app) => [app.appId, app.appSecret]);
    for (const [service, credentials] of [
      ['twitter', accounts.twitter(h.fake)],
      ['facebook', accounts.facebook(h.fake)],
      ['github', accounts.github(h.fake)],
      ['keycloak', accounts.keycloak(h.fake)],
      ['google', accounts.google(h.fake)],
    ] as const) {
      secrets.push(credentials.accessToken, credentials.accessTokenSecret);
      for (let i = 0; i < 3; i++) {
        const { data } = (await login(app, { ...loginBody(service, ''), ...credentials })).json();
        issued.push({ userId: data.userId, token: data.authToken });
      }
    }
    const loggedOut = issued.filter((_, i) => i % 3 === 0);
    for (const session of loggedOut)
      expect((await logout(app, session.userId, session.token)).statusCode).toBe(200);

    // Every table of the schema, every row, as text.
    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(h.store.db);
    let rows = 0;
    let dump = '';
    for (const { table_name } of tables.rows) {
      const result = await sql<{
        row: string;
      }>`SELECT row_to_json(t)::text AS row FROM ${sql.table(table_name)} t`.execute(h.store.db);
      rows += result.rows.length;
      dump += result.rows.map((row) => row.row).join('\n');
    }
    const leaked = [
      ...issued.map((session) => session.token),
      ...secrets.filter((secret) => secret.length > 0),
    ].filter((value) => dump.includes(value));
    const hashes = await h.store.db.selectFrom('sessions').select('token_hash').execute();
    const live = issued.filter((session) => !loggedOut.includes(session));
    figures.onlyHashes = {
      tables: tables.rows.map((row) => row.table_name),
      rowsRead: rows,
      tokensIssued: issued.length,
      secretsLookedFor: issued.length + secrets.length,
      found: leaked.length,
    };
    expect(tables.rows.map((row) => row.table_name)).toEqual(
      expect.arrayContaining(['users', 'sessions']),
    );
    expect(leaked).toEqual([]);
    expect(hashes.map((row) => row.token_hash).sort()).toEqual(
      live.map((session) => createHash('sha256').update(session.token).digest('base64url')).sort(),
    );
  });
});
