import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, parseServices } from '../src/config.js';

/** TWO_FACTOR_KEY, CHAT_ADMINS and the apple service type. */
const folder = mkdtempSync(join(tmpdir(), 'chat-auth-config-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const servicesFile = join(folder, 'chat.config.yaml');
writeFileSync(
  servicesFile,
  'services:\n  github:\n    type: github\n    appId: a\n    appSecret: b\n',
);
const load = (env: Record<string, string>) =>
  loadConfig({ CHAT_CONFIG: servicesFile, ...env }, folder);

describe('TWO_FACTOR_KEY', () => {
  it('takes 32 bytes as hex or base64, and is absent by default', () => {
    const key = Buffer.alloc(32, 7);
    expect(load({}).twoFactorKey).toBeUndefined();
    expect(load({ TWO_FACTOR_KEY: key.toString('hex') }).twoFactorKey).toEqual(key);
    expect(load({ TWO_FACTOR_KEY: key.toString('base64') }).twoFactorKey).toEqual(key);
    expect(load({ TWO_FACTOR_KEY: key.toString('base64url') }).twoFactorKey).toEqual(key);
  });

  it('refuses anything else, naming the variable', () => {
    for (const bad of [
      'short',
      'x'.repeat(64),
      Buffer.alloc(16).toString('hex'),
      Buffer.alloc(31).toString('base64'),
    ]) {
      expect(() => load({ TWO_FACTOR_KEY: bad })).toThrow(/^TWO_FACTOR_KEY: must be 32 bytes/);
    }
  });
});

describe('CHAT_ADMINS', () => {
  it('is a comma-separated list of service:providerUserId of configured services', () => {
    expect(load({}).admins).toEqual([]);
    expect(load({ CHAT_ADMINS: ' github:583231, github:1 ' }).admins).toEqual([
      'github:583231',
      'github:1',
    ]);
    expect(() => load({ CHAT_ADMINS: 'github' })).toThrow(
      /^CHAT_ADMINS: "github" is not service:providerUserId/,
    );
    expect(() => load({ CHAT_ADMINS: 'github:' })).toThrow(/not service:providerUserId/);
    expect(() => load({ CHAT_ADMINS: 'gitlab:5' })).toThrow(
      /names service "gitlab", not configured/,
    );
  });
});

describe('the apple service type', () => {
  it('needs appId and appSecret; issuer and jwksUrl are optional URLs; unknown keys are refused', () => {
    const [apple] = parseServices(
      'services:\n  apple:\n    type: apple\n    appId: com.example.chat\n    appSecret: s\n',
      'test',
      {},
    );
    expect(apple).toEqual({
      name: 'apple',
      type: 'apple',
      appId: 'com.example.chat',
      appSecret: 's',
    });
    expect(() =>
      parseServices(
        'services:\n  apple:\n    type: apple\n    appId: a\n    appSecret: s\n    jwksUrl: nope\n',
        'test',
        {},
      ),
    ).toThrow(/services\.apple\.jwksUrl/);
    expect(() =>
      parseServices(
        'services:\n  apple:\n    type: apple\n    appId: a\n    appSecret: s\n    jwks: x\n',
        'test',
        {},
      ),
    ).toThrow(/services\.apple\.jwks: unknown property/);
  });
});
