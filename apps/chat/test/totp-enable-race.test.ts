import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { totpFor } from '../src/auth/totp.js';
import { accounts } from './support/accounts.js';
import { Harness, login, loginBody, me } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

const KEY = randomBytes(32);
const ROUNDS = 5;
const RACING_LOGINS = 40;

/**
 * Enabling TOTP ends every other session of the user. A login without a code that passed the
 * "TOTP off" check while the confirmation was committing must not leave a session behind: on
 * PostgreSQL (a pool of connections) the logins and the confirmation really run at once.
 */
describe('enabling TOTP while logins without a code are in flight', () => {
  it(`no session opened without a code outlives the confirmation (${ROUNDS} rounds of ${RACING_LOGINS} logins)`, async () => {
    const app = await h.app({ twoFactorKey: KEY });
    const survivors: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const credentials = accounts.github(h.fake, 900_000 + round, `racer${round}`);
      const body = { ...loginBody('github', ''), ...credentials };
      const first = await login(app, body);
      expect(first.statusCode).toBe(200);
      const { userId, authToken } = first.json().data;
      const auth = { 'x-user-id': userId, 'x-auth-token': authToken };
      const setup = await app.inject({
        method: 'POST',
        url: '/api/v1/users.2fa.enableTOTP',
        headers: auth,
      });
      expect(setup.statusCode).toBe(200);
      const code = totpFor(setup.json().secret, 'x').generate({ timestamp: h.clock });

      const logins = Array.from({ length: RACING_LOGINS }, () => login(app, body));
      const confirm = app.inject({
        method: 'POST',
        url: '/api/v1/users.2fa.confirmTOTP',
        headers: auth,
        payload: { code },
      });
      const [confirmed, ...answers] = await Promise.all([confirm, ...logins]);
      expect(confirmed.statusCode).toBe(200);
      for (const answer of answers) expect([200, 401]).toContain(answer.statusCode);

      let alive = 0;
      for (const answer of answers.filter((a) => a.statusCode === 200)) {
        const token = answer.json().data.authToken as string;
        if ((await me(app, userId, token)).statusCode === 200) alive++;
      }
      survivors.push(alive);
      // And a fresh login now needs the code.
      expect((await login(app, body)).json().error).toBe('totp-required');
      h.advance(60);
    }
    expect(survivors).toEqual(Array(ROUNDS).fill(0));
  });
});
