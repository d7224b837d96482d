import { ConfigError } from '@netops/service-runtime';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CORS_ORIGINS,
  DEFAULT_LOGIN_LOCKOUT,
  readProtectionsConfig,
} from '../../src/protections/index.js';

describe('readProtectionsConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    expect(readProtectionsConfig({})).toEqual({
      rateLimitMax: 100,
      rateLimitWindowMs: 60_000,
      redisUrl: undefined,
      trustProxy: false,
      corsOrigins: DEFAULT_CORS_ORIGINS,
      tls: undefined,
      bodyLimit: 1_048_576,
      timeouts: { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 72_000, connectionMs: 60_000 },
      allowedHosts: { any: false, names: [] },
      loginLockout: DEFAULT_LOGIN_LOCKOUT,
    });
    expect(DEFAULT_CORS_ORIGINS).toContain('http://localhost:3000');
    expect(DEFAULT_CORS_ORIGINS).toContain('http://127.0.0.1:5173');
  });

  it('reads every variable, treating empty ones as unset', () => {
    const config = readProtectionsConfig({
      RATE_LIMIT_MAX: '0',
      RATE_LIMIT_WINDOW_MS: '1000',
      REDIS_URL: 'redis://127.0.0.1:6379/2',
      TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,loopback',
      CORS_ORIGINS: 'https://App.Example.com:443/, http://localhost:8081',
      TLS_CERT_FILE: '/etc/tls/cert.pem',
      TLS_KEY_FILE: '/etc/tls/key.pem',
      BODY_LIMIT: '2048',
      HEADERS_TIMEOUT_MS: '500',
      REQUEST_TIMEOUT_MS: '1500',
      KEEP_ALIVE_TIMEOUT_MS: '700',
      CONNECTION_TIMEOUT_MS: '0',
      ALLOWED_HOSTS: 'Inventory.Example.COM., .ops.example:8443, [::1]:3000',
      HOST: 'inventory.lan',
      LOGIN_FAILURES_PER_ADDRESS: '3',
      LOGIN_FAILURES_PER_ACCOUNT: '50',
      LOGIN_MAX_DELAY_SECONDS: '3600',
      PORT: 'not ours to read',
    });
    expect(config).toEqual({
      rateLimitMax: 0,
      rateLimitWindowMs: 1000,
      redisUrl: 'redis://127.0.0.1:6379/2',
      trustProxy: ['10.0.0.1', '192.168.0.0/16', 'loopback'],
      corsOrigins: ['https://app.example.com', 'http://localhost:8081'],
      tls: { certFile: '/etc/tls/cert.pem', keyFile: '/etc/tls/key.pem' },
      bodyLimit: 2048,
      timeouts: { headersMs: 500, requestMs: 1500, keepAliveMs: 700, connectionMs: 0 },
      allowedHosts: {
        any: false,
        names: [
          { name: 'inventory.lan', port: undefined },
          { name: 'inventory.example.com', port: undefined },
          { name: '.ops.example', port: 8443 },
          { name: '::1', port: 3000 },
        ],
      },
      loginLockout: {
        ...DEFAULT_LOGIN_LOCKOUT,
        failuresPerAddress: 3,
        failuresPerAccount: 50,
        maxDelayMs: 3_600_000,
      },
    });
    expect(readProtectionsConfig({ RATE_LIMIT_MAX: '', CORS_ORIGINS: ' ' }).rateLimitMax).toBe(100);
  });

  it('reports every problem at once', () => {
    let thrown: unknown;
    try {
      readProtectionsConfig({
        RATE_LIMIT_MAX: '1.5',
        RATE_LIMIT_WINDOW_MS: '0',
        REDIS_URL: 'http://cache:6379',
        TRUST_PROXY: 'true',
        CORS_ORIGINS: '*',
        TLS_CERT_FILE: '/only/the/cert.pem',
        BODY_LIMIT: '-1',
        HEADERS_TIMEOUT_MS: '40000',
        REQUEST_TIMEOUT_MS: '30000',
        KEEP_ALIVE_TIMEOUT_MS: '0',
        CONNECTION_TIMEOUT_MS: 'soon',
        ALLOWED_HOSTS: 'https://inventory.example.com',
        LOGIN_FAILURES_PER_ADDRESS: '0',
        LOGIN_MAX_DELAY_SECONDS: '0',
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const problems = (thrown as ConfigError).problems.join('\n');
    for (const name of [
      'RATE_LIMIT_MAX',
      'RATE_LIMIT_WINDOW_MS',
      'REDIS_URL',
      'TRUST_PROXY',
      'CORS_ORIGINS',
      'TLS_CERT_FILE and TLS_KEY_FILE',
      'BODY_LIMIT',
      'HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS',
      'KEEP_ALIVE_TIMEOUT_MS',
      'CONNECTION_TIMEOUT_MS',
      'ALLOWED_HOSTS',
      'LOGIN_FAILURES_PER_ADDRESS',
      'LOGIN_MAX_DELAY_SECONDS',
    ]) {
      expect(problems).toContain(name);
    }
  });
});

// The TRUST_PROXY and CORS_ORIGINS parsers are the platform's, shared with the chat service
// (packages/service-runtime/test/platform.test.ts); here, what the inventory makes of them.
describe('TRUST_PROXY and CORS_ORIGINS in the inventory', () => {
  it('lets the usual local development servers call by default, and "none" allows none', () => {
    expect(readProtectionsConfig({}).corsOrigins).toBe(DEFAULT_CORS_ORIGINS);
    expect(readProtectionsConfig({ CORS_ORIGINS: 'none' }).corsOrigins).toEqual([]);
  });

  it('refuses a hop count, naming the variable and what to set instead', () => {
    expect(() => readProtectionsConfig({ TRUST_PROXY: '2' })).toThrow(
      /TRUST_PROXY: "2" is a hop count.*TRUST_PROXY=10\.0\.0\.5/,
    );
  });
});
