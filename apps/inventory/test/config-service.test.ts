import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_MAIL_FROM, loadConfig } from '../src/config.js';
import { DEFAULT_CORS_ORIGINS } from '../src/protections/config.js';
import { DEFAULT_LOGIN_LOCKOUT } from '../src/protections/login-lockout-policy.js';

/** The variables part 2 added to the one typed configuration: protections, mail, reset codes. */
describe('loadConfig: protections, mail and password reset', () => {
  it('has documented defaults', () => {
    const config = loadConfig({});
    expect(config.protections).toEqual({
      rateLimitMax: 100,
      rateLimitWindowMs: 60_000,
      redisUrl: undefined,
      trustProxy: false,
      corsOrigins: DEFAULT_CORS_ORIGINS,
      tls: undefined,
      bodyLimit: 1024 * 1024,
      timeouts: { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 72_000, connectionMs: 60_000 },
      allowedHosts: { any: false, names: [] },
      loginLockout: DEFAULT_LOGIN_LOCKOUT,
    });
    expect(config.mail).toEqual({ smtpUrl: undefined, from: DEFAULT_MAIL_FROM });
    expect(config.resetTtlSeconds).toBe(900);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      RATE_LIMIT_MAX: '0',
      RATE_LIMIT_WINDOW_MS: '1000',
      REDIS_URL: 'redis://127.0.0.1:6379',
      TRUST_PROXY: '10.0.0.0/8, loopback',
      CORS_ORIGINS: 'https://app.example.com',
      TLS_CERT_FILE: '/etc/cert.pem',
      TLS_KEY_FILE: '/etc/key.pem',
      BODY_LIMIT: '2048',
      SMTP_URL: 'smtps://mailer:secret@mail.example.com:465',
      MAIL_FROM: 'Ops <ops@example.com>',
      RESET_TTL: '30m',
    });
    expect(config.protections).toMatchObject({
      rateLimitMax: 0,
      rateLimitWindowMs: 1000,
      redisUrl: 'redis://127.0.0.1:6379',
      trustProxy: ['10.0.0.0/8', 'loopback'],
      corsOrigins: ['https://app.example.com'],
      tls: { certFile: '/etc/cert.pem', keyFile: '/etc/key.pem' },
      bodyLimit: 2048,
    });
    expect(config.bodyLimit).toBe(2048);
    expect(config.mail).toEqual({
      smtpUrl: 'smtps://mailer:secret@mail.example.com:465',
      from: 'Ops <ops@example.com>',
    });
    expect(config.resetTtlSeconds).toBe(1800);
  });

  it('reports the core and the protections problems together', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        TRUST_PROXY: 'true',
        CORS_ORIGINS: '*',
        SMTP_URL: 'http://mail.example.com',
        RESET_TTL: 'soon',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ['PORT', 'TRUST_PROXY', 'CORS_ORIGINS', 'SMTP_URL', 'RESET_TTL']) {
      expect(message).toContain(name);
    }
  });
});
