import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { accounts } from '../test/support/accounts.js';
import { Harness, login, loginBody, logout, me } from '../test/support/harness.js';
import { report, scale } from './support/measure.js';

/**
 * The session cache under hostile input and races: SESSION_CACHE's hostile values are
 * refused clearly (no control character echoed); a logout racing a burst of `me` on two instances
 * leaves no 200 once the logout's notification has been heard; wrong tokens never fill the cache.
 */
const BURST = scale(200, 2000);
const figures: Record<string, unknown> = {};

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(async () => {
  report('session-cache', figures);
  await h?.close();
});

describe('SESSION_CACHE', () => {
  it.each(['yes', 'true', '1', 'of\u0000f', '\u001b[2Joff', 'on,off', 'x'.repeat(10_000)])(
    'refuses a hostile value (%#) with a ConfigError and no raw control character',
    (value) => {
      let error: unknown;
      try {
        loadConfig({ SESSION_CACHE: value }, process.cwd());
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toMatch(/^SESSION_CACHE: must be on or off, not "/);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is that none is there
      expect(message).not.toMatch(/[\u0000-\u001f\u007f]/);
    },
  );

  it('takes on and off whatever their case and spaces', () => {
    expect(loadConfig({ SESSION_CACHE: ' OFF ' }, process.cwd()).sessionCache).toBe(false);
    expect(loadConfig({ SESSION_CACHE: 'On' }, process.cwd()).sessionCache).toBe(true);
    expect(loadConfig({}, process.cwd()).sessionCache).toBe(true);
  });
});

describe('races', () => {
  it(`a logout racing ${BURST} me calls on two instances: no 200 once it is heard`, async () => {
    const a: FastifyInstance = await h.app();
    const b: FastifyInstance = await h.app();
    const answer = await login(a, { ...loginBody('github', ''), ...accounts.github(h.fake) });
    const { userId, authToken } = answer.json().data as { userId: string; authToken: string };
    const burst = Array.from({ length: BURST }, (_, i) => me(i % 2 ? a : b, userId, authToken));
    const loggedOut = logout(a, userId, authToken);
    const statuses = (await Promise.all(burst)).map((response) => response.statusCode);
    expect((await loggedOut).statusCode).toBe(200);
    // Every answer was 200 (before), 401 (after) or 429 (the dead token's failures lock the
    // address, as any wrong token's do); nothing else, no 500.
    expect(statuses.filter((status) => ![200, 401, 429].includes(status))).toEqual([]);
    // Once the notification has had its moment, neither instance serves the token again.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await Promise.all(
      Array.from({ length: 20 }, (_, i) => me(i % 2 ? a : b, userId, authToken)),
    );
    expect(after.filter((response) => response.statusCode === 200)).toEqual([]);
    figures.logoutRace = {
      burst: BURST,
      answered200: statuses.filter((status) => status === 200).length,
      answered401: statuses.filter((status) => status === 401).length,
      answered429: statuses.filter((status) => status === 429).length,
    };
  });

  it(`${BURST} wrong tokens for a cached user: all refused, the right one still works elsewhere`, async () => {
    const app = await h.app();
    const answer = await login(app, { ...loginBody('github', ''), ...accounts.github(h.fake) });
    const { userId, authToken } = answer.json().data as { userId: string; authToken: string };
    expect((await me(app, userId, authToken)).statusCode).toBe(200);
    const statuses = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        app
          .inject({
            method: 'GET',
            url: '/api/v1/me',
            headers: { 'x-user-id': userId, 'x-auth-token': `guess-${i}` },
            remoteAddress: '203.0.113.9',
          })
          .then((response) => response.statusCode),
      ),
    );
    expect(statuses.filter((status) => status === 200)).toEqual([]);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    // The owner, from its own address, is not locked by the stranger's guesses.
    expect((await me(app, userId, authToken)).statusCode).toBe(200);
  });
});
