import { randomBytes, randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox, totpFor } from '../src/auth/totp.js';
import { accounts } from './support/accounts.js';
import { Harness, login, loginBody, me } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

const KEY = randomBytes(32);

describe('RFC 6238 test vectors', () => {
  // Appendix B: the 8-digit values; a 6-digit code is the same number modulo 10^6.
  const vectors: [number, string, string, string][] = [
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ];
  const seeds = {
    SHA1: '12345678901234567890',
    SHA256: '12345678901234567890123456789012',
    SHA512: '1234567890123456789012345678901234567890123456789012345678901234',
  };

  it('otpauth computes every vector for SHA-1, SHA-256 and SHA-512', () => {
    for (const [seconds, sha1, sha256, sha512] of vectors) {
      for (const [algorithm, expected] of [
        ['SHA1', sha1],
        ['SHA256', sha256],
        ['SHA512', sha512],
      ] as const) {
        const totp = new TOTP({
          algorithm,
          digits: 8,
          period: 30,
          secret: Secret.fromUTF8(seeds[algorithm]),
        });
        expect(totp.generate({ timestamp: seconds * 1000 }), `${algorithm} at ${seconds}`).toBe(
          expected,
        );
      }
    }
  });

  it("the service's own parameters (SHA-1, 6 digits, 30 s) give the vectors' last six digits", () => {
    const totp = totpFor(Secret.fromUTF8(seeds.SHA1).base32, 'label');
    for (const [seconds, sha1] of vectors) {
      expect(totp.generate({ timestamp: seconds * 1000 })).toBe(sha1.slice(2));
      expect(totp.validate({ token: sha1.slice(2), timestamp: seconds * 1000, window: 1 })).toBe(0);
    }
  });
});

describe('SecretBox (AES-256-GCM)', () => {
  it('opens what it sealed, for that user and that key only, and detects tampering', () => {
    const box = new SecretBox(KEY);
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'user-a');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed, 'user-a')).toBe('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed, 'user-b')).toBeUndefined();
    expect(new SecretBox(randomBytes(32)).open(sealed, 'user-a')).toBeUndefined();
    const parts = sealed.split('.');
    // Flip one bit of the ciphertext (not of a base64 character: its last one has unused bits).
    const ciphertext = Buffer.from(parts[4] ?? '', 'base64url');
    ciphertext[0] = (ciphertext[0] ?? 0) ^ 1;
    parts[4] = ciphertext.toString('base64url');
    expect(box.open(parts.join('.'), 'user-a')).toBeUndefined();
    // Two seals of one secret differ (a fresh IV each time).
    expect(box.seal('JBSWY3DPEHPK3PXP', 'user-a')).not.toBe(sealed);
  });
});

interface Signed {
  app: FastifyInstance;
  userId: string;
  token: string;
  credentials: { accessToken: string; accessTokenSecret: string };
}

/** `githubId`: a GitHub account of its own, for tests whose lock-out keys live in a shared Redis. */
async function signIn(app?: FastifyInstance, githubId?: number): Promise<Signed> {
  const service = app ?? (await h.app({ twoFactorKey: KEY }));
  const credentials = accounts.github(h.fake, githubId);
  const response = await login(service, { ...loginBody('github', ''), ...credentials });
  expect(response.statusCode).toBe(200);
  const { data } = response.json();
  return { app: service, userId: data.userId, token: data.authToken, credentials };
}

const post = (s: Signed, url: string, payload?: object, headers: Record<string, string> = {}) =>
  s.app.inject({
    method: 'POST',
    url,
    headers: { 'x-user-id': s.userId, 'x-auth-token': s.token, ...headers },
    ...(payload ? { payload } : {}),
  });

const codeAt = (secret: string, timestamp = h.clock) =>
  totpFor(secret, 'x').generate({ timestamp });

/** Enables and confirms TOTP; returns the secret and the backup codes. */
async function enable(s: Signed) {
  const setup = await post(s, '/api/v1/users.2fa.enableTOTP');
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json();
  const confirmed = await post(s, '/api/v1/users.2fa.confirmTOTP', { code: codeAt(secret) });
  expect(confirmed.statusCode).toBe(200);
  h.advance(30); // the confirming code's step is used up
  return { secret: secret as string, codes: confirmed.json().codes as string[] };
}

const loginWith = (s: Signed, headers: Record<string, string> = {}, app = s.app) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/login',
    payload: { ...loginBody('github', ''), ...s.credentials },
    headers,
  });

const TOTP_DETAILS = { method: 'totp', availableMethods: ['totp'] };

describe('TOTP two-factor', () => {
  it('enable returns the secret and an otpauth:// URI once; only ciphertext is stored', async () => {
    const s = await signIn();
    const response = await post(s, '/api/v1/users.2fa.enableTOTP');
    expect(response.statusCode).toBe(200);
    const { success, secret, url } = response.json();
    expect(success).toBe(true);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(url);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('chat.example.test');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
    const rows = await sql<{
      row: unknown;
    }>`SELECT row_to_json(t) AS row FROM two_factor t`.execute(h.store.db);
    expect(rows.rows).toHaveLength(1);
    const stored = JSON.stringify(rows.rows);
    expect(stored).not.toContain(secret);
    expect(
      new SecretBox(KEY).open(
        (rows.rows[0]?.row as { secret_ciphertext: string } | undefined)?.secret_ciphertext ?? '',
        s.userId,
      ),
    ).toBe(secret);
    // Not yet confirmed: logins do not ask for a code.
    expect((await loginWith(s)).statusCode).toBe(200);
  });

  it('confirming needs a right code; it returns 10 backup codes, stored as keyed digests, and ends other sessions', async () => {
    const s = await signIn();
    const other = await signIn(s.app);
    const { secret } = (await post(s, '/api/v1/users.2fa.enableTOTP')).json();
    const wrong = await post(s, '/api/v1/users.2fa.confirmTOTP', {
      code: '000000' === codeAt(secret) ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ error: 'totp-invalid', details: TOTP_DETAILS });
    const confirmed = await post(s, '/api/v1/users.2fa.confirmTOTP', { code: codeAt(secret) });
    expect(confirmed.statusCode).toBe(200);
    const { codes } = confirmed.json();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = JSON.stringify((await sql`SELECT * FROM two_factor`.execute(h.store.db)).rows);
    for (const code of codes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace('-', ''));
    }
    expect((await me(s.app, s.userId, s.token)).statusCode).toBe(200);
    expect((await me(s.app, other.userId, other.token)).statusCode).toBe(401);
    // Enabling again once enabled is refused.
    expect((await post(s, '/api/v1/users.2fa.enableTOTP')).statusCode).toBe(409);
  });

  it("a login then answers Rocket.Chat's totp-required until X-2FA-Code carries a right code; not counted", async () => {
    const s = await signIn();
    const { secret } = await enable(s);
    for (let i = 0; i < 8; i++) {
      const response = await loginWith(s);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        status: 'error',
        error: 'totp-required',
        message: 'TOTP Required',
        details: TOTP_DETAILS,
      });
    }
    const ok = await loginWith(s, { 'x-2fa-code': codeAt(secret), 'x-2fa-method': 'totp' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.userId).toBe(s.userId);
    const email = await loginWith(s, {
      'x-2fa-code': codeAt(secret, h.clock + 30_000),
      'x-2fa-method': 'email',
    });
    expect(email.statusCode).toBe(400);
  });

  it("a code works once per time step: replays are refused, the next step's code works", async () => {
    const s = await signIn();
    const { secret } = await enable(s);
    const code = codeAt(secret);
    expect((await loginWith(s, { 'x-2fa-code': code })).statusCode).toBe(200);
    const replay = await loginWith(s, { 'x-2fa-code': code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe('totp-invalid');
    // A code of the previous step is older than the one used: refused too.
    expect(
      (await loginWith(s, { 'x-2fa-code': codeAt(secret, h.clock - 30_000) })).statusCode,
    ).toBe(401);
    // Drift: the next step's code is accepted (once), then the current step's is stale.
    expect(
      (await loginWith(s, { 'x-2fa-code': codeAt(secret, h.clock + 30_000) })).statusCode,
    ).toBe(200);
    expect(
      (await loginWith(s, { 'x-2fa-code': codeAt(secret, h.clock + 30_000) })).statusCode,
    ).toBe(401);
    h.advance(60);
    expect((await loginWith(s, { 'x-2fa-code': codeAt(secret) })).statusCode).toBe(200);
  });

  it('a replay is refused by another instance sharing the database', async () => {
    const s = await signIn();
    const { secret } = await enable(s);
    const second = await h.app({ twoFactorKey: KEY });
    const code = codeAt(secret);
    const both = await Promise.all([
      loginWith(s, { 'x-2fa-code': code }),
      loginWith(s, { 'x-2fa-code': code }, second),
    ]);
    expect(both.map((response) => response.statusCode).sort()).toEqual([200, 401]);
  });

  it('a backup code works once, in any case and with or without its dash', async () => {
    const s = await signIn();
    const { codes } = await enable(s);
    const [first = '', second = ''] = codes;
    expect((await loginWith(s, { 'x-2fa-code': first.toUpperCase() })).statusCode).toBe(200);
    expect((await loginWith(s, { 'x-2fa-code': first })).statusCode).toBe(401);
    expect((await loginWith(s, { 'x-2fa-code': second.replace('-', '') })).statusCode).toBe(200);
  });

  it('wrong codes lock the second factor after 5, even for the right code; the lock ends', async () => {
    const s = await signIn();
    const { secret } = await enable(s);
    const right = codeAt(secret);
    const wrong = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) {
      expect((await loginWith(s, { 'x-2fa-code': wrong })).json().error).toBe('totp-invalid');
    }
    const locked = await loginWith(s, { 'x-2fa-code': right });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toBe('account-locked');
    h.advance(301);
    expect((await loginWith(s, { 'x-2fa-code': codeAt(secret) })).statusCode).toBe(200);
  });

  it('disabling needs a right code; afterwards logins need none', async () => {
    const s = await signIn();
    const { secret } = await enable(s);
    const code = codeAt(secret);
    const wrong = await post(s, '/api/v1/users.2fa.disableTOTP', {
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(401);
    expect((await post(s, '/api/v1/users.2fa.disableTOTP', {})).statusCode).toBe(400);
    expect((await loginWith(s)).json().error).toBe('totp-required');
    const disabled = await post(s, '/api/v1/users.2fa.disableTOTP', { code });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toEqual({ success: true });
    expect((await loginWith(s)).statusCode).toBe(200);
    expect((await sql`SELECT * FROM two_factor`.execute(h.store.db)).rows).toHaveLength(0);
  });

  it('resume needs no code: the token passed the second factor when it was issued', async () => {
    const s = await signIn();
    await enable(s);
    const resumed = await s.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { resume: s.token },
    });
    expect(resumed.statusCode).toBe(200);
  });

  it('without TWO_FACTOR_KEY, enabling is refused (503), and enabled users cannot log in without it', async () => {
    const withoutKey = await h.app();
    const s = await signIn(withoutKey);
    const refused = await post(s, '/api/v1/users.2fa.enableTOTP');
    expect(refused.statusCode).toBe(503);
    expect(refused.json().error).toBe('two-factor-unavailable');
    const withKey = await h.app({ twoFactorKey: KEY });
    const { secret } = await enable({ ...s, app: withKey });
    const blind = await loginWith(s, { 'x-2fa-code': codeAt(secret) });
    expect(blind.statusCode).toBe(503);
    // Another key cannot open the secret: refused the same way, never accepted.
    const otherKey = await h.app({ twoFactorKey: randomBytes(32) });
    expect((await loginWith(s, { 'x-2fa-code': codeAt(secret) }, otherKey)).statusCode).toBe(503);
  });

  it('the management routes need a session', async () => {
    const service = await h.app({ twoFactorKey: KEY });
    for (const url of [
      '/api/v1/users.2fa.enableTOTP',
      '/api/v1/users.2fa.confirmTOTP',
      '/api/v1/users.2fa.disableTOTP',
    ]) {
      const response = await service.inject({ method: 'POST', url, payload: { code: '123456' } });
      expect(response.statusCode).toBe(401);
    }
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.skipIf(!redisUrl)('with Redis (TEST_REDIS_URL): two instances', () => {
  it('share the lock-out of wrong codes', async () => {
    const redis = new Redis(redisUrl ?? '', { maxRetriesPerRequest: 1 });
    try {
      const one = await h.app({ twoFactorKey: KEY }, redis);
      const two = await h.app({ twoFactorKey: KEY }, redis);
      // Lock-out keys in Redis outlive this run: a GitHub account of its own each time.
      const s = await signIn(one, randomInt(1_000_000, 2 ** 31));
      const { secret } = await enable(s);
      const right = codeAt(secret);
      const wrong = right === '123456' ? '654321' : '123456';
      for (let i = 0; i < 5; i++) {
        const response = await loginWith(s, { 'x-2fa-code': wrong }, i % 2 === 0 ? one : two);
        expect(response.json().error).toBe('totp-invalid');
      }
      for (const instance of [one, two]) {
        const locked = await loginWith(s, { 'x-2fa-code': right }, instance);
        expect(locked.statusCode).toBe(429);
        expect(locked.json().error).toBe('account-locked');
      }
    } finally {
      redis.disconnect();
    }
  });
});
