import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JWT_SECRET_FILE, resolveJwtSecret } from '../src/auth/secret.js';
import { ConfigError, INVENTORY_VARIABLES, loadConfig, parseDuration } from '../src/config.js';

const SECRET = 'x'.repeat(32);
const folders: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'inventory-config-'));
  folders.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('has documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      logLevel: 'info',
      databaseUrl: undefined,
      dataDir: resolve('data/inventory'),
      jwtSecret: undefined,
      tokenTtlSeconds: 86_400,
      seedPassword: undefined,
      passwordHashing: { memoryCost: 19_456, timeCost: 2 },
      bodyLimit: 1024 * 1024,
      databaseTimeouts: { connectMs: 5000, queryMs: 30_000 },
    });
  });

  it('reads the database timeouts, 0 turning the statement deadline off', () => {
    const config = loadConfig({
      DATABASE_CONNECT_TIMEOUT_MS: '1500',
      DATABASE_QUERY_TIMEOUT_MS: '0',
    });
    expect(config.databaseTimeouts).toEqual({ connectMs: 1500, queryMs: 0 });
    expect(() => loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '0' })).toThrow(
      /DATABASE_CONNECT_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ DATABASE_QUERY_TIMEOUT_MS: '2s' })).toThrow(
      /DATABASE_QUERY_TIMEOUT_MS/,
    );
  });

  it('reads DATABASE_POOL_SIZE, from 1 to 1000', () => {
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: '4' }).databasePoolSize).toBe(4);
    for (const bad of ['0', '-1', '1001', '4.5', 'four']) {
      expect(() => loadConfig({ DATABASE_POOL_SIZE: bad }), bad).toThrow(/DATABASE_POOL_SIZE/);
    }
  });

  it('reads DATABASE_READS_BESIDE_WRITES, from 1 to 1000, by default a fifth of the pool', () => {
    expect(loadConfig({}).databaseReadsBesideWrites).toBe(2);
    expect(loadConfig({ DATABASE_POOL_SIZE: '40' }).databaseReadsBesideWrites).toBe(8);
    expect(loadConfig({ DATABASE_POOL_SIZE: '3' }).databaseReadsBesideWrites).toBe(1);
    expect(loadConfig({ DATABASE_READS_BESIDE_WRITES: '10' }).databaseReadsBesideWrites).toBe(10);
    for (const bad of ['0', '-1', '1001', '2.5', 'two']) {
      expect(() => loadConfig({ DATABASE_READS_BESIDE_WRITES: bad }), bad).toThrow(
        /DATABASE_READS_BESIDE_WRITES/,
      );
    }
  });

  it('reads LIST_CACHE: on unless off', () => {
    expect(loadConfig({}).listCache).toBe(true);
    expect(loadConfig({ LIST_CACHE: 'on' }).listCache).toBe(true);
    expect(loadConfig({ LIST_CACHE: 'off' }).listCache).toBe(false);
    expect(() => loadConfig({ LIST_CACHE: 'no' })).toThrow(/LIST_CACHE/);
  });

  it('reads every variable, treating empty ones as unset', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '8080',
      LOG_LEVEL: 'warn',
      DATABASE_URL: 'postgres://u@db:5432/inv',
      DATA_DIR: '/tmp/inv',
      JWT_SECRET: SECRET,
      TOKEN_TTL: '2h',
      SEED_PASSWORD: 'seed-password',
      ARGON2_MEMORY_COST: '4096',
      ARGON2_TIME_COST: '3',
      SOMETHING_ELSE: 'ignored',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
      logLevel: 'warn',
      databaseUrl: 'postgres://u@db:5432/inv',
      dataDir: '/tmp/inv',
      jwtSecret: SECRET,
      tokenTtlSeconds: 7200,
      seedPassword: 'seed-password',
      passwordHashing: { memoryCost: 4096, timeCost: 3 },
    });
    expect(loadConfig({ PORT: '', TOKEN_TTL: '' })).toMatchObject({
      port: 3000,
      tokenTtlSeconds: 86_400,
    });
  });

  it('reports every problem at once, each bad variable named once, LOG_LEVEL included', () => {
    let thrown: unknown;
    try {
      loadConfig({
        PORT: 'http',
        LOG_LEVEL: 'loud',
        TOKEN_TTL: 'forever',
        DATABASE_URL: 'mysql://root:hunter2@db/inventory',
        ARGON2_TIME_COST: 'two',
        RATE_LIMIT_MAX: '-1',
        TRUST_PROXY: '2',
        WEBHOOK_TIMEOUT: '1h',
        LIST_CACHE: 'maybe',
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const { problems, message } = thrown as ConfigError;
    const named = problems.map((problem) => /^([A-Z0-9_]+): /.exec(problem)?.[1]).sort();
    expect(named).toEqual(
      [
        'PORT',
        'LOG_LEVEL',
        'TOKEN_TTL',
        'DATABASE_URL',
        'ARGON2_TIME_COST',
        'RATE_LIMIT_MAX',
        'TRUST_PROXY',
        'WEBHOOK_TIMEOUT',
        'LIST_CACHE',
      ].sort(),
    );
    for (const problem of problems) expect(message).toContain(problem);
    // A URL's password is never repeated in an error.
    expect(message).not.toContain('hunter2');
  });

  it('refuses a short JWT_SECRET, and PostgreSQL without one', () => {
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET: must be at least 32/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://localhost/inv' })).toThrow(
      /JWT_SECRET: required when DATABASE_URL points to PostgreSQL/,
    );
    expect(
      loadConfig({ DATABASE_URL: 'postgres://localhost/inv', JWT_SECRET: SECRET }).jwtSecret,
    ).toBe(SECRET);
    expect(loadConfig({ DATABASE_URL: 'memory://' }).jwtSecret).toBeUndefined();
  });

  it('refuses a short SEED_PASSWORD and out-of-range ports', () => {
    expect(() => loadConfig({ SEED_PASSWORD: 'abc' })).toThrow(/SEED_PASSWORD/);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
  });
});

describe('parseDuration', () => {
  it.each([
    ['3600', 3600],
    ['90s', 90],
    ['30m', 1800],
    ['24h', 86_400],
    ['7d', 604_800],
  ])('%s -> %i seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });
  it.each(['', 'abc', '1w', '-5', '1.5h'])('rejects %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('resolveJwtSecret', () => {
  it('uses JWT_SECRET when given', () => {
    expect(resolveJwtSecret(loadConfig({ JWT_SECRET: SECRET }))).toBe(SECRET);
  });

  it('generates one on the first start of the embedded store and keeps it (mode 0600)', () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: join(dir, 'data') });
    const first = resolveJwtSecret(config);
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = join(dir, 'data', JWT_SECRET_FILE);
    expect(readFileSync(file, 'utf8')).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(resolveJwtSecret(config)).toBe(first);
  });

  it('gives the in-memory store a fresh secret per process, written nowhere', () => {
    const config = loadConfig({ DATABASE_URL: 'memory://', DATA_DIR: join(tempDir(), 'none') });
    expect(resolveJwtSecret(config)).not.toBe(resolveJwtSecret(config));
  });
});

describe('the variable list --help prints', () => {
  it('names every variable the service reads, once, each with its line', () => {
    // The reader refuses a name the list does not declare; this shows the list holds nothing
    // the service no longer reads.
    const read = new Set<string>();
    const environment = new Proxy<Record<string, string | undefined>>(
      {},
      {
        get(_target, name) {
          if (typeof name === 'string') read.add(name);
          return undefined;
        },
      },
    );
    loadConfig(environment);
    const listed = INVENTORY_VARIABLES.map(({ name }) => name);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...read].sort());
    for (const { name, help } of INVENTORY_VARIABLES) expect(help, name).not.toBe('');
  });
});
