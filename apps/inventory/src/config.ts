import {
  type Environment,
  EnvironmentReader,
  type LogLevel,
  readListenSettings,
  readStoreSettings,
} from '@netops/service-runtime';
import { DEFAULT_POOL_SIZE, defaultReadsBesideWrites, isPostgresUrl } from '@netops/store';
import { type ProtectionsConfig, readProtections } from './protections/config.js';
import { DEFAULT_DATA_DIR, DEFAULT_PORT, INVENTORY_VARIABLES } from './variables.js';
import type { WebhookSettings } from './webhooks/worker.js';

/** A configuration problem found at start-up, naming its variable (the platform's). */
export { ConfigError, LOG_LEVELS, type LogLevel } from '@netops/service-runtime';
export { INVENTORY_VARIABLES } from './variables.js';

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
  /** PostgreSQL only: statements the instance runs at once (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  /**
   * PostgreSQL only: reads that may start while some writes run (DATABASE_READS_BESIDE_WRITES;
   * default a fifth of the pool, at least 1).
   */
  databaseReadsBesideWrites: number;
  dataDir: string;
  /**
   * EMBEDDED_DURABILITY: `on` (default) flushes each commit of the embedded store to stable
   * storage before answering; `off` is for throwaway data (survives a kill, not a power loss).
   */
  embeddedDurability?: boolean;
  /** EMBEDDED_SHARED_BUFFERS, in megabytes; unset: the store's default (32). */
  embeddedSharedBuffersMb?: number | undefined;
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

/**
 * Reads and checks every variable, reporting all problems at once, so a misconfigured start-up
 * fails with one clear message instead of halfway through.
 */
export function loadConfig(
  env: Environment,
  /** LOG_LEVEL when unset: runService passes `warn` when stdout is a terminal (quiet by default). */
  defaults: { logLevel?: LogLevel } = {},
): Config {
  const vars = new EnvironmentReader(env, INVENTORY_VARIABLES);
  const listen = readListenSettings(vars, DEFAULT_PORT, defaults.logLevel ?? 'info');
  const store = readStoreSettings(vars, DEFAULT_DATA_DIR);
  const protections = readProtections(vars);

  const databaseTimeouts = {
    // 0 would mean "wait forever" to pg's pool: the hang these limits are there to prevent.
    connectMs: vars.integer('DATABASE_CONNECT_TIMEOUT_MS', DEFAULT_DATABASE_TIMEOUTS.connectMs, 1),
    queryMs: vars.integer('DATABASE_QUERY_TIMEOUT_MS', DEFAULT_DATABASE_TIMEOUTS.queryMs, 0),
  };

  // Secrets and passwords as given: a space in them is theirs.
  const jwtSecret = vars.read(
    'JWT_SECRET',
    (text) => atLeast(text, MIN_JWT_SECRET_LENGTH),
    undefined,
    'verbatim',
  );
  if (vars.verbatim('JWT_SECRET') === undefined && isPostgresUrl(store.databaseUrl)) {
    // Several instances share one PostgreSQL; a secret generated by each would make tokens
    // from one instance fail on the others, and there is no shared folder to keep one in.
    vars.problem(
      'JWT_SECRET: required when DATABASE_URL points to PostgreSQL (every instance must sign with the same secret)',
    );
  }
  const seedPassword = vars.read(
    'SEED_PASSWORD',
    (text) => atLeast(text, MIN_SEED_PASSWORD_LENGTH),
    undefined,
    'verbatim',
  );

  const databasePoolSize = vars.integer('DATABASE_POOL_SIZE', DEFAULT_POOL_SIZE, 1, 1000);
  const config: Config = {
    ...listen,
    ...store,
    databaseTimeouts,
    databasePoolSize,
    databaseReadsBesideWrites: vars.integer(
      'DATABASE_READS_BESIDE_WRITES',
      defaultReadsBesideWrites(databasePoolSize),
      1,
      1000,
    ),
    listCache: vars.onOff('LIST_CACHE', true),
    jwtSecret,
    tokenTtlSeconds: vars.read(
      'TOKEN_TTL',
      (text) => durationOf(text, 24 * 60 * 60, 'like 3600, 90s, 30m, 24h or 7d'),
      24 * 60 * 60,
    ),
    seedPassword,
    passwordHashing: {
      // argon2's own lower bounds: 8 KiB per lane, one pass.
      memoryCost: vars.integer('ARGON2_MEMORY_COST', DEFAULT_PASSWORD_HASHING.memoryCost, 8),
      timeCost: vars.integer('ARGON2_TIME_COST', DEFAULT_PASSWORD_HASHING.timeCost, 1),
    },
    bodyLimit: protections.bodyLimit,
    protections,
    mail: {
      smtpUrl: vars.url('SMTP_URL', ['smtp', 'smtps']),
      from: vars.read(
        'MAIL_FROM',
        (text) => {
          if (text !== undefined && text.length < 3) {
            throw new Error('must be an address like Inventory <noreply@example.com>');
          }
          return text ?? DEFAULT_MAIL_FROM;
        },
        DEFAULT_MAIL_FROM,
      ),
    },
    resetTtlSeconds: vars.read(
      'RESET_TTL',
      (text) => durationOf(text, DEFAULT_RESET_TTL_SECONDS, 'like 900, 90s, 15m or 1h'),
      DEFAULT_RESET_TTL_SECONDS,
    ),
    webhooks: readWebhookConfig(vars),
  };
  vars.finish();
  return config;
}

/** A secret or password of at least `length` characters, or undefined when unset. */
function atLeast(text: string | undefined, length: number): string | undefined {
  if (text !== undefined && text.length < length) {
    throw new Error(`must be at least ${length} characters`);
  }
  return text;
}

/** A duration (see parseDuration) of at least a second, or `fallback` when unset. */
function durationOf(text: string | undefined, fallback: number, examples: string): number {
  if (text === undefined) return fallback;
  const seconds = parseDuration(text);
  if (seconds === undefined || seconds < 1) throw new Error(`must be a duration ${examples}`);
  return seconds;
}

export const MIN_WEBHOOK_SECRET_KEY_LENGTH = 32;

/** WEBHOOK_* (README "Webhooks"): durations as elsewhere (`10`, `90s`, `5m`, `24h`, `7d`). */
function readWebhookConfig(vars: EnvironmentReader): WebhookConfig {
  const duration = (name: string, fallbackSeconds: number, minimum: number, maximum: number) =>
    vars.read(
      name,
      (text) => {
        if (text === undefined) return fallbackSeconds;
        const parsed = parseDuration(text);
        if (parsed === undefined || parsed < minimum || parsed > maximum) {
          throw new Error(
            `must be a duration like 30, 90s, 5m or 24h, from ${minimum} s to ${maximum} s`,
          );
        }
        return parsed;
      },
      fallbackSeconds,
    );
  const secretKey = vars.read(
    'WEBHOOK_SECRET_KEY',
    (text) => atLeast(text, MIN_WEBHOOK_SECRET_KEY_LENGTH),
    undefined,
    'verbatim',
  );
  const retryPeriod = duration('WEBHOOK_RETRY_PERIOD', 24 * 3600, 1, 30 * 86_400);
  const timeout = duration('WEBHOOK_TIMEOUT', 10, 1, 300);
  const lease = duration('WEBHOOK_LEASE', 60, 2, 3600);
  const firstRetry = duration('WEBHOOK_FIRST_RETRY', 1, 1, 3600);
  // A lease shorter than an attempt would hand a delivery still in flight to another worker.
  if (lease <= timeout) vars.problem('WEBHOOK_LEASE: must be longer than WEBHOOK_TIMEOUT');
  return {
    // The switches of outbound calls are taken only as written: "TRUE", "ON" or "true\n" is
    // refused rather than guessed at.
    allowPrivateTargets:
      vars.oneOf('WEBHOOK_ALLOW_PRIVATE_TARGETS', ['true', 'false'], 'false', 'verbatim') ===
      'true',
    secretKey,
    retryPeriodMs: retryPeriod * 1000,
    timeoutMs: timeout * 1000,
    leaseMs: lease * 1000,
    firstRetryDelayMs: firstRetry * 1000,
    maxRetryDelayMs: 3600 * 1000,
    pollMs: 5000,
    concurrency: 8,
    workerEnabled: vars.oneOf('WEBHOOK_WORKER', ['on', 'off'], 'on', 'verbatim') === 'on',
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
