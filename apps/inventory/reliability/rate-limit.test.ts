// The rate limit under concurrency: the real app listening on a loopback port, N
// requests from one address all at once against a budget of M. Exactly M may pass, whatever the
// interleaving: each counter value handed out once, the rest 429 in the error shape with
// Retry-After and the X-RateLimit-* headers. In memory, and (TEST_REDIS_URL) through Redis with
// two instances sharing the budget. A concurrent password-guessing burst is checked against the
// budget alone (the login lock-out, which would stop it sooner, is raised here; guard.test.ts
// checks it): M guesses evaluated, the rest refused before any password work. The probes are
// outside it.
import { randomUUID } from 'node:crypto';
import type { Store } from '@netops/store';
import { openTestStore } from '@netops/store/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { PasswordHasher } from '../src/auth/passwords.js';
import { seedInitialAccounts } from '../src/auth/users.js';
import { type Database, MIGRATIONS_FOLDER } from '../src/db/schema.js';
import { readProtectionsConfig } from '../src/protections/config.js';
import { TEST_HASHING, TEST_PASSWORD, testConfig } from '../test/helpers.js';
import { report } from './support/process-server.js';

const SOAK = process.env.SOAK === '1';
const REDIS_URL = process.env.TEST_REDIS_URL || undefined;

interface Instance {
  app: FastifyInstance;
  store: Store<Database>;
  url: string;
}

const instances: Instance[] = [];
afterAll(async () => {
  for (const { app, store } of instances.splice(0)) {
    await app.close();
    await store.close();
  }
});

/** The real app on a loopback port, with its own store and the given budget. */
async function startInstance(options: {
  max: number;
  redisUrl?: string | undefined;
  keyPrefix?: string;
}): Promise<Instance> {
  const store = await openTestStore<Database>({ migrations: MIGRATIONS_FOLDER });
  await seedInitialAccounts(store.db, new PasswordHasher(TEST_HASHING), TEST_PASSWORD);
  const app = await buildApp(
    testConfig({
      protections: {
        // The login lock-out (reliability/guard.test.ts) is raised out of the way: these checks
        // are about the per-client budget alone.
        ...readProtectionsConfig({
          LOGIN_FAILURES_PER_ADDRESS: '100000',
          LOGIN_FAILURES_PER_ACCOUNT: '100000',
        }),
        rateLimitMax: options.max,
        redisUrl: options.redisUrl,
      },
      ...(options.keyPrefix ? { rateLimitKeyPrefix: options.keyPrefix } : {}),
    }),
    { store },
  );
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const instance = { app, store, url };
  instances.push(instance);
  return instance;
}

interface Answer {
  status: number;
  body: string;
  limit: string | null;
  remaining: string | null;
  reset: string | null;
  retryAfter: string | null;
}

async function send(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, init);
  const header = (name: string) => response.headers.get(name);
  return {
    status: response.status,
    body: await response.text(),
    limit: header('x-ratelimit-limit'),
    remaining: header('x-ratelimit-remaining'),
    reset: header('x-ratelimit-reset'),
    retryAfter: header('retry-after'),
  };
}

/** Exactly `max` through, each remaining count once, every other answer a proper 429. */
function expectExactBudget(
  answers: readonly Answer[],
  max: number,
  passed: (a: Answer) => boolean,
) {
  const through = answers.filter(passed);
  const refused = answers.filter((a) => a.status === 429);
  expect({ through: through.length, refused: refused.length }).toEqual({
    through: max,
    refused: answers.length - max,
  });
  // The counter was handed out once per request: remaining max-1 … 0, each exactly once.
  expect(through.map((a) => Number(a.remaining)).sort((a, b) => a - b)).toEqual(
    Array.from({ length: max }, (_, i) => i),
  );
  for (const answer of refused) {
    expect(JSON.parse(answer.body)).toEqual({ status: 'error', message: 'Too many requests' });
    expect(answer.limit).toBe(String(max));
    expect(answer.remaining).toBe('0');
    expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(answer.reset)).toBeGreaterThanOrEqual(1);
  }
}

const tally = (answers: readonly Answer[]) => {
  const counts: Record<string, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
};

const figures: Record<string, unknown> = {};
afterAll(() => report(`rate-limit${SOAK ? '-soak' : ''}${REDIS_URL ? '-redis' : ''}`, figures));

describe('rate limit under concurrency', () => {
  const requests = SOAK ? 2000 : 300;
  const max = SOAK ? 500 : 100;

  it(`lets exactly ${max} of ${requests} simultaneous requests from one address through (memory)`, async () => {
    const { url } = await startInstance({ max });
    const answers = await Promise.all(Array.from({ length: requests }, () => send(`${url}/`)));
    figures.memory = { requests, max, answers: tally(answers) };
    expectExactBudget(answers, max, (a) => a.status === 200);

    // Probes are outside the limit: still answered, and without the budget's headers.
    const probes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(`${url}${i % 2 ? '/health' : '/health/ready'}`)),
    );
    figures.probesAfterBudget = tally(probes);
    for (const probe of probes) {
      expect(probe.status).toBe(200);
      expect(probe.limit).toBeNull();
    }
  });

  it(`lets exactly 20 of ${SOAK ? 500 : 100} simultaneous password guesses be evaluated`, async () => {
    const guesses = SOAK ? 500 : 100;
    const { url, store } = await startInstance({ max: 20 });
    const answers = await Promise.all(
      Array.from({ length: guesses }, (_, i) =>
        send(`${url}/users/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: `guess-${i}` }),
        }),
      ),
    );
    // Each evaluated guess is audited as login_failed; refused ones never reached the handler.
    const audited = await store.db
      .selectFrom('audit_logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', 'login_failed')
      .executeTakeFirstOrThrow();
    figures.loginGuesses = {
      guesses,
      max: 20,
      answers: tally(answers),
      auditedFailures: Number(audited.n),
    };
    expectExactBudget(answers, 20, (a) => a.status === 401);
    expect(Number(audited.n)).toBe(20);
  });

  it.skipIf(!REDIS_URL)(
    `lets exactly ${max} of ${requests} through two instances sharing Redis`,
    async () => {
      const keyPrefix = `reliability:rate-limit:${randomUUID()}:`;
      const first = await startInstance({ max, redisUrl: REDIS_URL, keyPrefix });
      const second = await startInstance({ max, redisUrl: REDIS_URL, keyPrefix });
      const answers = await Promise.all(
        Array.from({ length: requests }, (_, i) => send(`${i % 2 ? first.url : second.url}/`)),
      );
      figures.redisTwoInstances = { requests, max, answers: tally(answers) };
      expectExactBudget(answers, max, (a) => a.status === 200);
    },
  );
});
