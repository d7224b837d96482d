import { resolve } from 'node:path';
import type { EnvVariable } from '@netops/service-runtime';
import { isPostgresUrl } from '@netops/store';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import {
  type ProtectionsConfig,
  ProtectionsConfigError,
  ProtectionsEnvSchema,
  readProtectionsConfig,
} from './protections/config.js';
import type { WebhookSettings } from './webhooks/worker.js';

/**
 * The service's whole configuration, read from the environment once at start-up (main.ts) and
 * handed down as a typed value; nothing else reads process.env. Every variable is documented in
 * the README.
 */
export interface Config {
  host: string;
  port: number;
  logLevel: LogLevel;
  /** postgres:// URL, `memory://`, or undefined for the embedded store in `dataDir`. */
  databaseUrl: string | undefined;
  /** PostgreSQL only: longest wait for a new connection and for one statement's answer. */
  databaseTimeouts: { connectMs: number; queryMs: number };
  dataDir: string;
  /**
   * EMBEDDED_DURABILITY: `on` (default) flushes each commit of the embedded store to stable
   * storage before answering; `off` is for throwaway data (survives a kill, not a power loss).
   */
  embeddedDurability?: boolean;
  /**
   * LIST_CACHE: reuse exact list totals, deep-page positions and rendered pages while their table
   * is unchanged (resources/list-cache.ts). Off only to measure or rule out the cache.
   */
  listCache: boolean;
  /** From JWT_SECRET; undefined means "generate and keep one in dataDir" (see auth/secret.ts). */
  jwtSecret: string | undefined;
  tokenTtlSeconds: number;
  /** Password of the initial accounts; undefined means a random one, printed once. */
  seedPassword: string | undefined;
  passwordHashing: PasswordHashingConfig;
  /** Largest accepted request body in bytes (BODY_LIMIT, read with the protections). */
  bodyLimit: number;
  /** Rate limit, CORS, proxies, TLS, body limit: see protections/config.ts. */
  protections: ProtectionsConfig;
  mail: MailConfig;
  /** Lifetime of a password-reset code (RESET_TTL). */
  resetTtlSeconds: number;
  /** Outbound webhooks (WEBHOOK_*; README "Webhooks"). Absent: no delivery worker runs. */
  webhooks?: WebhookConfig;
}

/** WEBHOOK_*: the delivery worker's settings (documented where they are used), and the sealing key. */
export interface WebhookConfig extends WebhookSettings {
  /** WEBHOOK_SECRET_KEY: seals webhook secrets; JWT_SECRET when unset. */
  secretKey: string | undefined;
}

export interface MailConfig {
  /** smtp:// or smtps:// URL; undefined writes messages to the outbox folder under dataDir. */
  smtpUrl: string | undefined;
  /** Sender of the service's messages (MAIL_FROM). */
  from: string;
}

export const DEFAULT_MAIL_FROM = 'Network Inventory <noreply@localhost>';
export const DEFAULT_RESET_TTL_SECONDS = 15 * 60;

export interface PasswordHashingConfig {
  /** argon2id memory cost in KiB. */
  memoryCost: number;
  /** argon2id iterations. */
  timeCost: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** HS256 keys shorter than the hash output (32 bytes) weaken the signature. */
export const MIN_JWT_SECRET_LENGTH = 32;
export const MIN_SEED_PASSWORD_LENGTH = 8;
export const BODY_LIMIT_BYTES = 1024 * 1024;
/**
 * A pooled connection that cannot be had in 5 s means the server is down or unreachable; a
 * statement unanswered after 30 s means it stopped answering (the benchmark's slowest requests,
 * at 100,000 devices and 32 connections, take under 1 s at the 99th percentile).
 */
export const DEFAULT_DATABASE_TIMEOUTS = { connectMs: 5000, queryMs: 30_000 };
/** OWASP's recommended argon2id parameters (19 MiB, 2 iterations, 1 lane). */
export const DEFAULT_PASSWORD_HASHING: PasswordHashingConfig = { memoryCost: 19_456, timeCost: 2 };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const optionalText = (options: { minLength?: number; pattern?: string } = {}) =>
  Type.Optional(Type.String(options));

const integerText = '^[0-9]+$';

/** The variables as text, as the environment gives them; conversion follows the checks. */
export const EnvSchema = Type.Object({
  HOST: optionalText({ minLength: 1 }),
  PORT: optionalText({ pattern: integerText }),
  LOG_LEVEL: Type.Optional(Type.Union(LOG_LEVELS.map((level) => Type.Literal(level)))),
  DATABASE_URL: optionalText(),
  DATABASE_CONNECT_TIMEOUT_MS: optionalText({ pattern: integerText }),
  DATABASE_QUERY_TIMEOUT_MS: optionalText({ pattern: integerText }),
  DATA_DIR: optionalText({ minLength: 1 }),
  LIST_CACHE: Type.Optional(Type.Union([Type.Literal('on'), Type.Literal('off')])),
  EMBEDDED_DURABILITY: Type.Optional(Type.Union([Type.Literal('on'), Type.Literal('off')])),
  JWT_SECRET: optionalText(),
  TOKEN_TTL: optionalText(),
  SEED_PASSWORD: optionalText(),
  ARGON2_MEMORY_COST: optionalText({ pattern: integerText }),
  ARGON2_TIME_COST: optionalText({ pattern: integerText }),
  SMTP_URL: optionalText({ pattern: '^smtps?://' }),
  MAIL_FROM: optionalText({ minLength: 3 }),
  RESET_TTL: optionalText(),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')]),
  ),
  WEBHOOK_SECRET_KEY: optionalText(),
  WEBHOOK_RETRY_PERIOD: optionalText(),
  WEBHOOK_TIMEOUT: optionalText(),
  WEBHOOK_LEASE: optionalText(),
  WEBHOOK_FIRST_RETRY: optionalText(),
  WEBHOOK_WORKER: Type.Optional(Type.Union([Type.Literal('on'), Type.Literal('off')])),
});

/**
 * Every environment variable the service reads (its own and the protections'), with the line
 * `--help` prints for it: the one list. A test checks it names every variable of both schemas.
 */
export const INVENTORY_VARIABLES: readonly EnvVariable[] = [
  { name: 'PORT', help: 'TCP port (default 3000; 0 picks a free one)' },
  { name: 'HOST', help: 'address to listen on (default 127.0.0.1)' },
  {
    name: 'LOG_LEVEL',
    help: 'fatal, error, warn, info, debug, trace, silent (default: warn on a terminal, info otherwise)',
  },
  {
    name: 'DATABASE_URL',
    help: 'postgres://… for PostgreSQL, memory:// for a throwaway store; unset: embedded store in DATA_DIR',
  },
  {
    name: 'DATABASE_CONNECT_TIMEOUT_MS',
    help: 'PostgreSQL: longest wait for a connection, ms (default 5000)',
  },
  {
    name: 'DATABASE_QUERY_TIMEOUT_MS',
    help: 'PostgreSQL: longest wait for one statement, ms (default 30000; 0: none)',
  },
  {
    name: 'DATA_DIR',
    help: 'folder of the embedded store and its generated JWT secret (default ./data/inventory)',
  },
  {
    name: 'EMBEDDED_DURABILITY',
    help: 'on (default): each write is on disk before its answer; off: throwaway data only',
  },
  { name: 'LIST_CACHE', help: 'on (default): unchanged lists reuse totals and pages; off: never' },
  {
    name: 'JWT_SECRET',
    help: 'token signing secret, at least 32 characters (required with PostgreSQL)',
  },
  { name: 'TOKEN_TTL', help: 'token lifetime, e.g. 3600, 30m, 24h (default 24h)' },
  {
    name: 'SEED_PASSWORD',
    help: 'password of the initial accounts on a first start (default: random, printed once)',
  },
  { name: 'ARGON2_MEMORY_COST', help: 'argon2id memory cost in KiB (default 19456)' },
  { name: 'ARGON2_TIME_COST', help: 'argon2id iterations (default 2)' },
  {
    name: 'SMTP_URL',
    help: 'where password-reset e-mails go, smtp(s)://… (default: files in DATA_DIR/outbox)',
  },
  {
    name: 'MAIL_FROM',
    help: 'sender of the e-mails (default Network Inventory <noreply@localhost>)',
  },
  { name: 'RESET_TTL', help: 'lifetime of a password-reset code (default 15m)' },
  ...(
    [
      ['RATE_LIMIT_MAX', 'RATE_LIMIT_WINDOW_MS', 'REDIS_URL', 'TRUST_PROXY', 'CORS_ORIGINS'],
      ['TLS_CERT_FILE', 'TLS_KEY_FILE', 'BODY_LIMIT', 'HEADERS_TIMEOUT_MS', 'REQUEST_TIMEOUT_MS'],
      ['KEEP_ALIVE_TIMEOUT_MS', 'CONNECTION_TIMEOUT_MS', 'ALLOWED_HOSTS'],
      ['LOGIN_FAILURES_PER_ADDRESS', 'LOGIN_FAILURES_PER_ACCOUNT', 'LOGIN_MAX_DELAY_SECONDS'],
    ] as const
  )
    .flat()
    .map((name) => ({
      name,
      help: (ProtectionsEnvSchema.properties[name] as { description?: string }).description ?? '',
    })),
  {
    name: 'WEBHOOK_ALLOW_PRIVATE_TARGETS',
    help: 'true: webhooks may call loopback/private addresses (default false)',
  },
  {
    name: 'WEBHOOK_SECRET_KEY',
    help: 'key sealing webhook secrets, 32+ characters (default JWT_SECRET)',
  },
  { name: 'WEBHOOK_RETRY_PERIOD', help: 'how long a delivery is retried (default 24h)' },
  { name: 'WEBHOOK_TIMEOUT', help: 'one delivery attempt, 1 s to 300 s (default 10)' },
  {
    name: 'WEBHOOK_LEASE',
    help: 'how long a worker holds a delivery, > WEBHOOK_TIMEOUT (default 60)',
  },
  { name: 'WEBHOOK_FIRST_RETRY', help: 'wait before the first retry (default 1)' },
  {
    name: 'WEBHOOK_WORKER',
    help: 'on (default): this instance delivers webhooks; off: it does not',
  },
];

/**
 * Reads and checks every variable, reporting all problems at once, so a misconfigured start-up
 * fails with one clear message instead of halfway through.
 */
export function loadConfig(
  env: Record<string, string | undefined>,
  /** LOG_LEVEL when unset: main.ts passes `warn` when stdout is a terminal (quiet by default). */
  defaults: { logLevel?: LogLevel } = {},
): Config {
  // Empty variables count as unset: `FOO= npm start` should not mean "FOO is the empty string".
  const present = Object.fromEntries(
    Object.keys(EnvSchema.properties)
      .map((name) => [name, env[name]] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const problems: string[] = [];
  if (!Value.Check(EnvSchema, present)) {
    for (const error of Value.Errors(EnvSchema, present)) {
      problems.push(`${error.instancePath.slice(1) || 'environment'}: ${error.message}`);
    }
  }
  const vars = present as Partial<Record<keyof typeof EnvSchema.properties, string>>;

  let protections: ProtectionsConfig | undefined;
  try {
    protections = readProtectionsConfig(env);
  } catch (error) {
    if (!(error instanceof ProtectionsConfigError)) throw error;
    problems.push(...error.problems);
  }

  let resetTtlSeconds = DEFAULT_RESET_TTL_SECONDS;
  if (vars.RESET_TTL !== undefined) {
    const parsed = parseDuration(vars.RESET_TTL);
    if (parsed === undefined || parsed < 1) {
      problems.push('RESET_TTL: must be a duration like 900, 90s, 15m or 1h');
    } else resetTtlSeconds = parsed;
  }

  const port = Number(vars.PORT ?? 3000);
  if (!Number.isInteger(port) || port > 65_535) problems.push('PORT: must be 0 to 65535');

  let tokenTtlSeconds = 24 * 60 * 60;
  if (vars.TOKEN_TTL !== undefined) {
    const parsed = parseDuration(vars.TOKEN_TTL);
    if (parsed === undefined || parsed < 1) {
      problems.push('TOKEN_TTL: must be a duration like 3600, 90s, 30m, 24h or 7d');
    } else tokenTtlSeconds = parsed;
  }

  const databaseUrl = vars.DATABASE_URL;
  if (databaseUrl !== undefined && !isPostgresUrl(databaseUrl) && databaseUrl !== 'memory://') {
    problems.push('DATABASE_URL: must be a postgres:// (or postgresql://) URL or memory://');
  }

  const databaseTimeouts = {
    connectMs: Number(vars.DATABASE_CONNECT_TIMEOUT_MS ?? DEFAULT_DATABASE_TIMEOUTS.connectMs),
    queryMs: Number(vars.DATABASE_QUERY_TIMEOUT_MS ?? DEFAULT_DATABASE_TIMEOUTS.queryMs),
  };
  // 0 would mean "wait forever" to pg's pool: the hang these limits are there to prevent.
  if (databaseTimeouts.connectMs < 1)
    problems.push('DATABASE_CONNECT_TIMEOUT_MS: must be at least 1');

  const jwtSecret = vars.JWT_SECRET;
  if (jwtSecret !== undefined && jwtSecret.length < MIN_JWT_SECRET_LENGTH) {
    problems.push(`JWT_SECRET: must be at least ${MIN_JWT_SECRET_LENGTH} characters`);
  }
  if (jwtSecret === undefined && isPostgresUrl(databaseUrl)) {
    // Several instances share one PostgreSQL; a secret generated by each would make tokens
    // from one instance fail on the others, and there is no shared folder to keep one in.
    problems.push(
      'JWT_SECRET: required when DATABASE_URL points to PostgreSQL (every instance must sign with the same secret)',
    );
  }

  const seedPassword = vars.SEED_PASSWORD;
  if (seedPassword !== undefined && seedPassword.length < MIN_SEED_PASSWORD_LENGTH) {
    problems.push(`SEED_PASSWORD: must be at least ${MIN_SEED_PASSWORD_LENGTH} characters`);
  }

  const memoryCost = Number(vars.ARGON2_MEMORY_COST ?? DEFAULT_PASSWORD_HASHING.memoryCost);
  const timeCost = Number(vars.ARGON2_TIME_COST ?? DEFAULT_PASSWORD_HASHING.timeCost);
  // argon2's own lower bounds: 8 KiB per lane, one pass.
  if (memoryCost < 8) problems.push('ARGON2_MEMORY_COST: must be at least 8 (KiB)');
  if (timeCost < 1) problems.push('ARGON2_TIME_COST: must be at least 1');

  const webhooks = readWebhookConfig(vars, problems);

  if (problems.length > 0 || protections === undefined) {
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  return {
    host: vars.HOST ?? '127.0.0.1',
    port,
    logLevel: (vars.LOG_LEVEL as LogLevel | undefined) ?? defaults.logLevel ?? 'info',
    databaseUrl,
    databaseTimeouts,
    dataDir: resolve(vars.DATA_DIR ?? 'data/inventory'),
    listCache: vars.LIST_CACHE !== 'off',
    embeddedDurability: vars.EMBEDDED_DURABILITY !== 'off',
    jwtSecret,
    tokenTtlSeconds,
    seedPassword,
    passwordHashing: { memoryCost, timeCost },
    bodyLimit: protections.bodyLimit,
    protections,
    mail: { smtpUrl: vars.SMTP_URL, from: vars.MAIL_FROM ?? DEFAULT_MAIL_FROM },
    resetTtlSeconds,
    webhooks,
  };
}

export const MIN_WEBHOOK_SECRET_KEY_LENGTH = 32;

/** WEBHOOK_* (README "Webhooks"): durations as elsewhere (`10`, `90s`, `5m`, `24h`, `7d`). */
function readWebhookConfig(
  vars: Partial<Record<string, string>>,
  problems: string[],
): WebhookConfig {
  const duration = (name: string, fallbackSeconds: number, minimum: number, maximum: number) => {
    const text = vars[name];
    if (text === undefined) return fallbackSeconds;
    const parsed = parseDuration(text);
    if (parsed === undefined || parsed < minimum || parsed > maximum) {
      problems.push(
        `${name}: must be a duration like 30, 90s, 5m or 24h, from ${minimum} s to ${maximum} s`,
      );
      return fallbackSeconds;
    }
    return parsed;
  };
  const secretKey = vars.WEBHOOK_SECRET_KEY;
  if (secretKey !== undefined && secretKey.length < MIN_WEBHOOK_SECRET_KEY_LENGTH) {
    problems.push(
      `WEBHOOK_SECRET_KEY: must be at least ${MIN_WEBHOOK_SECRET_KEY_LENGTH} characters`,
    );
  }
  const retryPeriod = duration('WEBHOOK_RETRY_PERIOD', 24 * 3600, 1, 30 * 86_400);
  const timeout = duration('WEBHOOK_TIMEOUT', 10, 1, 300);
  const lease = duration('WEBHOOK_LEASE', 60, 2, 3600);
  const firstRetry = duration('WEBHOOK_FIRST_RETRY', 1, 1, 3600);
  // A lease shorter than an attempt would hand a delivery still in flight to another worker.
  if (lease <= timeout) problems.push('WEBHOOK_LEASE: must be longer than WEBHOOK_TIMEOUT');
  return {
    allowPrivateTargets: vars.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
    secretKey,
    retryPeriodMs: retryPeriod * 1000,
    timeoutMs: timeout * 1000,
    leaseMs: lease * 1000,
    firstRetryDelayMs: firstRetry * 1000,
    maxRetryDelayMs: 3600 * 1000,
    pollMs: 5000,
    concurrency: 8,
    workerEnabled: vars.WEBHOOK_WORKER !== 'off',
  };
}

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** `3600` (seconds), `90s`, `30m`, `24h`, `7d` -> seconds; anything else -> undefined. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)\s*([smhd]?)$/.exec(text.trim());
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = DURATION_UNITS[match[2] || 's'] ?? 1;
  const seconds = amount * unit;
  return Number.isSafeInteger(seconds) ? seconds : undefined;
}
