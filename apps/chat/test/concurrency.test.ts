import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from './support/accounts.js';
import { Harness, loginBody } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

/** A real listening server: the concurrency goes through sockets, not `inject`. */
async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

interface LoginAnswer {
  data: { userId: string; authToken: string; me: { username: string } };
}

const post = (base: string, body: unknown) =>
  fetch(`${base}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('concurrent logins', () => {
  it('100 concurrent first logins of one new account create exactly one user', async () => {
    const base = await listen(await h.app());
    const body = { ...loginBody('twitter', ''), ...accounts.twitter(h.fake) };
    const responses = await Promise.all(Array.from({ length: 100 }, () => post(base, body)));
    const bodies = await Promise.all(
      responses.map((response) => response.json() as Promise<LoginAnswer>),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(100).fill(200));
    const userIds = new Set(bodies.map((answer) => answer.data.userId));
    expect(userIds.size).toBe(1);
    expect(new Set(bodies.map((answer) => answer.data.authToken)).size).toBe(100);
    const users = await h.store.db.selectFrom('users').selectAll().execute();
    expect(users).toHaveLength(1);
    expect(users[0]?.username).toBe('ada_lovelace');
    // 100 tokens issued, 50 kept.
    const sessions = await h.store.db.selectFrom('sessions').select('user_id').execute();
    expect(sessions).toHaveLength(50);
  });

  it('concurrent first logins of different accounts with one handle get distinct usernames', async () => {
    const base = await listen(await h.app());
    const bodies = Array.from({ length: 25 }, (_, i) => ({
      ...loginBody(i % 2 === 0 ? 'twitter' : 'github', ''),
      ...(i % 2 === 0
        ? accounts.twitter(h.fake, String(1000 + i), 'Dup.Name')
        : accounts.github(h.fake, 2000 + i, 'dup.name')),
    }));
    const responses = await Promise.all(bodies.map((body) => post(base, body)));
    expect(responses.map((response) => response.status)).toEqual(Array(25).fill(200));
    const answers = await Promise.all(
      responses.map((response) => response.json() as Promise<LoginAnswer>),
    );
    const usernames = answers.map((answer) => answer.data.me.username as string);
    expect(new Set(usernames).size).toBe(25);
    expect(new Set(answers.map((answer) => answer.data.userId)).size).toBe(25);
    expect(usernames).toContain('dup.name');
    for (const username of usernames) expect(username).toMatch(/^dup\.name[0-9]*$/);
  });
});
