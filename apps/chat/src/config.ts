import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Static, type TSchema, Type } from 'typebox';
import { parse as parseYaml } from 'yaml';
import { describeSchemaErrors, validatorFor } from './validation.js';

/** A configuration problem found at start-up; the message names the variable or key. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

// ---------------------------------------------------------------------------------------------
// The services file (CHAT_CONFIG): one entry per identity provider the service accepts.

const HttpUrl = Type.String({ pattern: '^https?://[^\\s]+$' });
const Secret = Type.String({ minLength: 1 });
const common = { appId: Secret, appSecret: Secret };

/** Each service type's keys; unknown keys are refused so a typo does not pass unnoticed. */
const serviceSchemas = {
  twitter: Type.Object(
    { type: Type.Literal('twitter'), ...common, apiUrl: Type.Optional(HttpUrl) },
    { additionalProperties: false },
  ),
  facebook: Type.Object(
    { type: Type.Literal('facebook'), ...common, graphUrl: Type.Optional(HttpUrl) },
    { additionalProperties: false },
  ),
  github: Type.Object(
    { type: Type.Literal('github'), ...common, apiUrl: Type.Optional(HttpUrl) },
    { additionalProperties: false },
  ),
  oidc: Type.Object(
    {
      type: Type.Literal('oidc'),
      ...common,
      issuer: HttpUrl,
      tokenInfoUrl: Type.Optional(HttpUrl),
    },
    { additionalProperties: false },
  ),
} satisfies Record<string, TSchema>;

export type ServiceType = keyof typeof serviceSchemas;
export const SERVICE_TYPES = Object.keys(serviceSchemas) as ServiceType[];

export const DEFAULT_URLS = {
  twitterApi: 'https://api.twitter.com',
  facebookGraph: 'https://graph.facebook.com/v21.0',
  githubApi: 'https://api.github.com',
} as const;

type WithName<T> = T & { name: string };
export type TwitterService = WithName<Static<(typeof serviceSchemas)['twitter']>>;
export type FacebookService = WithName<Static<(typeof serviceSchemas)['facebook']>>;
export type GithubService = WithName<Static<(typeof serviceSchemas)['github']>>;
export type OidcService = WithName<Static<(typeof serviceSchemas)['oidc']>>;
export type ServiceConfig = TwitterService | FacebookService | GithubService | OidcService;

const SERVICE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Replaces `${NAME}` in every string of the parsed file; a missing variable is an error naming the key. */
function substituteEnv(value: unknown, path: string, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string') {
    return value.replace(ENV_REFERENCE, (_match, name: string) => {
      const replacement = env[name];
      if (replacement === undefined || replacement === '') {
        throw new ConfigError(`${path}: environment variable ${name} is not set`);
      }
      return replacement;
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => substituteEnv(item, `${path}.${i}`, env));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, substituteEnv(item, `${path}.${key}`, env)]),
    );
  }
  return value;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Parses and validates the services file's text; `source` names it in error messages. */
export function parseServices(
  text: string,
  source: string,
  env: NodeJS.ProcessEnv,
): ServiceConfig[] {
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new ConfigError(`${source}: not valid YAML: ${(error as Error).message}`);
  }
  if (document === null || document === undefined) return [];
  if (!isObject(document))
    throw new ConfigError(`${source}: must be a mapping with a "services" key`);
  for (const key of Object.keys(document)) {
    if (key !== 'services') throw new ConfigError(`${key}: unknown key (expected "services")`);
  }
  const services = document.services ?? {};
  if (!isObject(services)) throw new ConfigError('services: must be a mapping of service names');

  return Object.entries(services).map(([name, raw]) => {
    const path = `services.${name}`;
    if (!SERVICE_NAME.test(name)) {
      throw new ConfigError(`${path}: a service name is 1-64 letters, digits, ".", "_" or "-"`);
    }
    if (!isObject(raw)) throw new ConfigError(`${path}: must be a mapping`);
    if (raw.type === undefined) throw new ConfigError(`${path}.type: required`);
    const type = raw.type as ServiceType;
    const schema = serviceSchemas[type];
    if (typeof raw.type !== 'string' || !schema) {
      throw new ConfigError(`${path}.type: must be one of ${SERVICE_TYPES.join(', ')}`);
    }
    const substituted = substituteEnv(raw, path, env);
    const validator = validatorFor(schema as TSchema);
    if (!validator.Check(substituted)) {
      throw new ConfigError(describeSchemaErrors(validator.Errors(substituted), path));
    }
    return { ...(substituted as Omit<ServiceConfig, 'name'>), name } as ServiceConfig;
  });
}

// ---------------------------------------------------------------------------------------------
// The environment.

export interface AppConfig {
  host: string;
  port: number;
  /** Public base URL, used in `avatarUrl`; no trailing slash. */
  siteUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  /** EMBEDDED_DURABILITY: flush each commit of the embedded store before answering (default on). */
  embeddedDurability?: boolean;
  redisUrl: string | undefined;
  /** Longest session, in seconds (LOGIN_EXPIRATION). */
  loginExpirationSeconds: number;
  /** Login attempts per client IP per minute (LOGIN_RATE_LIMIT). */
  loginRateLimit: number;
  lockout: {
    /** Failed attempts on one account before it is locked. */
    attempts: number;
    /** How long the lock lasts, and the window failures are counted in. */
    seconds: number;
  };
  provider: {
    timeoutMs: number;
    /** Largest provider answer read, in bytes. */
    maxBytes: number;
  };
  /** Trust X-Forwarded-For from a reverse proxy for the client IP. */
  trustProxy: boolean;
  logLevel: string;
  services: ServiceConfig[];
  /** Where the services came from, for the start-up message. */
  servicesSource: string;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw new ConfigError(`${name}: must be an integer >= ${min}, not "${raw}"`);
  }
  return Number(raw);
}

function boolean(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return false;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name}: must be true or false, not "${env[name]}"`);
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'on') return true;
  if (raw === 'off') return false;
  throw new ConfigError(`${name}: must be on or off, not "${env[name]}"`);
}

const DAY = 24 * 60 * 60;

/** Reads the environment and the services file once; throws ConfigError naming the bad setting. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
  /** LOG_LEVEL when unset: main.ts passes `warn` when stdout is a terminal (quiet by default). */
  defaults: { logLevel?: string } = {},
): AppConfig {
  const host = env.HOST || '127.0.0.1';
  const port = integer(env, 'PORT', 3100, 0);
  if (port > 65535) throw new ConfigError(`PORT: must be at most 65535, not ${port}`);
  const siteUrl = (env.SITE_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}`)
    .trim()
    .replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s]+$/.test(siteUrl)) {
    throw new ConfigError(`SITE_URL: must be an http(s) URL, not "${siteUrl}"`);
  }

  const configPath = resolve(cwd, env.CHAT_CONFIG || 'chat.config.yaml');
  let services: ServiceConfig[] = [];
  let servicesSource = `no file at ${configPath}`;
  if (existsSync(configPath)) {
    services = parseServices(readFileSync(configPath, 'utf8'), configPath, env);
    servicesSource = configPath;
  } else if (env.CHAT_CONFIG) {
    throw new ConfigError(`CHAT_CONFIG: ${configPath} does not exist`);
  }

  return {
    host,
    port,
    siteUrl,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(cwd, env.DATA_DIR || 'data/chat'),
    embeddedDurability: onOff(env, 'EMBEDDED_DURABILITY', true),
    redisUrl: env.REDIS_URL || undefined,
    loginExpirationSeconds: integer(env, 'LOGIN_EXPIRATION', 90 * DAY, 1),
    loginRateLimit: integer(env, 'LOGIN_RATE_LIMIT', 10, 1),
    lockout: {
      attempts: integer(env, 'LOGIN_LOCKOUT_ATTEMPTS', 5, 1),
      seconds: integer(env, 'LOGIN_LOCKOUT_SECONDS', 300, 1),
    },
    provider: {
      timeoutMs: integer(env, 'PROVIDER_TIMEOUT_MS', 5000, 1),
      maxBytes: integer(env, 'PROVIDER_MAX_BYTES', 1024 * 1024, 1024),
    },
    trustProxy: boolean(env, 'TRUST_PROXY'),
    logLevel: env.LOG_LEVEL || defaults.logLevel || 'info',
    services,
    servicesSource,
  };
}
