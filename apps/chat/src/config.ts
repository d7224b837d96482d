import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isTrustedProxyEntry } from '@netops/service-runtime';
import { parse as parseYaml } from 'yaml';
import { ID_TOKEN_MAX_AGE_DEFAULT_SECONDS } from './providers/id-token.js';
import { providerTypeOf, SERVICE_TYPES, type ServiceConfig } from './providers/registry.js';
import { describeSchemaErrors, validatorFor } from './validation.js';

export type { ServiceConfig, ServiceType } from './providers/registry.js';

/** A configuration problem found at start-up; the message names the variable or key. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

// ---------------------------------------------------------------------------------------------
// The services file (CHAT_CONFIG): one entry per identity provider the service accepts.

/**
 * Keys that are the base of a provider's API (each provider type names its own): a trailing `/`
 * is dropped, and a query, fragment or credentials are refused.
 */
function normaliseBaseUrls(
  service: Record<string, unknown>,
  keys: readonly string[],
  path: string,
): void {
  for (const key of keys) {
    const value = service[key];
    if (typeof value !== 'string') continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new ConfigError(`${path}.${key}: not a URL: "${value}"`);
    }
    if (url.search || url.hash || url.username || url.password) {
      throw new ConfigError(
        `${path}.${key}: a base URL has no query, fragment or credentials: "${value}"`,
      );
    }
    service[key] = value.replace(/\/+$/, '');
  }
}

const SERVICE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** `${NAME}`, or `${NAME:-default}` (the default when NAME is unset or empty), as in a shell. */
const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Replaces `${NAME}` in every string of the parsed file; a missing variable is an error naming the key. */
function substituteEnv(value: unknown, path: string, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string') {
    return value.replace(ENV_REFERENCE, (_match, name: string, fallback?: string) => {
      const replacement = env[name] || fallback;
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
    const type = providerTypeOf(raw.type);
    if (!type) {
      throw new ConfigError(`${path}.type: must be one of ${SERVICE_TYPES.join(', ')}`);
    }
    const substituted = substituteEnv(raw, path, env);
    const validator = validatorFor(type.schema);
    if (!validator.Check(substituted)) {
      throw new ConfigError(describeSchemaErrors(validator.Errors(substituted), path));
    }
    normaliseBaseUrls(substituted as Record<string, unknown>, type.baseUrlKeys, path);
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
  /**
   * SESSION_CACHE: keep valid sessions in memory between checks, dropped on every change the
   * database announces (default on; see SessionCache).
   */
  sessionCache?: boolean;
  redisUrl: string | undefined;
  /** Longest session, in seconds (LOGIN_EXPIRATION). */
  loginExpirationSeconds: number;
  /** Login attempts per client IP per minute (LOGIN_RATE_LIMIT). */
  loginRateLimit: number;
  /** Requests per client IP per minute on the other API routes (API_RATE_LIMIT). */
  apiRateLimit: number;
  lockout: {
    /** Failed attempts on one account before it is locked. */
    attempts: number;
    /** How long the lock lasts, and the window failures are counted in. */
    seconds: number;
    /** Most lock-out entries held in memory; past it new attempts are refused (LOCKOUT_MAX_ENTRIES). */
    maxKeys: number;
  };
  provider: {
    timeoutMs: number;
    /** Largest provider answer read, in bytes. */
    maxBytes: number;
  };
  /** Oldest ID token accepted, in seconds since its `iat` (ID_TOKEN_MAX_AGE, default 600). */
  idTokenMaxAgeSeconds?: number;
  /** The OAuth redirect flow (`/_oauth/<service>`). */
  oauth?: OAuthFlowConfig;
  /** Whose X-Forwarded-For is believed for the client IP (TRUST_PROXY). */
  trustProxy: TrustProxySetting;
  /** Origins browsers may call the API from (CORS_ORIGINS); none by default. */
  corsOrigins: readonly string[];
  /** Usernames never given to a new user (RESERVED_USERNAMES), lowercase. */
  reservedUsernames: readonly string[];
  logLevel: string;
  services: ServiceConfig[];
  /** Where the services came from, for the start-up message. */
  servicesSource: string;
  /** AES-256-GCM key for TOTP secrets (TWO_FACTOR_KEY); without it TOTP cannot be enabled. */
  twoFactorKey?: Buffer | undefined;
  /** Provider accounts that are admins, as `service:providerUserId` (CHAT_ADMINS). */
  admins?: readonly string[];
}

export interface OAuthFlowConfig {
  /** Seconds from the start of a flow to the provider's return (OAUTH_FLOW_TTL). */
  flowSeconds: number;
  /** Seconds a pending credential waits for its login (OAUTH_CREDENTIAL_TTL). */
  credentialSeconds: number;
  /** Origins a `redirect`-style flow may return to (OAUTH_REDIRECT_ORIGINS; ROOT_URL's origin). */
  redirectOrigins: readonly string[];
}

export const OAUTH_DEFAULTS = { flowSeconds: 600, credentialSeconds: 120 } as const;

/** TWO_FACTOR_KEY: 32 bytes as 64 hex digits or base64 (`openssl rand -base64 32`). */
function twoFactorKey(env: NodeJS.ProcessEnv): Buffer | undefined {
  const raw = env.TWO_FACTOR_KEY?.trim();
  if (!raw) return undefined;
  const key = /^[0-9a-fA-F]{64}$/.test(raw)
    ? Buffer.from(raw, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(raw)
      ? Buffer.from(raw, raw.includes('-') || raw.includes('_') ? 'base64url' : 'base64')
      : undefined;
  if (key?.length !== 32) {
    throw new ConfigError(
      'TWO_FACTOR_KEY: must be 32 bytes as 64 hex digits or base64 (openssl rand -base64 32)',
    );
  }
  return key;
}

/** CHAT_ADMINS: `service:providerUserId`, comma-separated, each naming a configured service. */
function admins(env: NodeJS.ProcessEnv, services: readonly ServiceConfig[]): string[] {
  const entries = (env.CHAT_ADMINS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    const colon = entry.indexOf(':');
    const service = entry.slice(0, colon);
    if (colon < 1 || colon === entry.length - 1) {
      throw new ConfigError(
        `CHAT_ADMINS: "${entry}" is not service:providerUserId (e.g. github:583231)`,
      );
    }
    if (!services.some((configured) => configured.name === service)) {
      throw new ConfigError(`CHAT_ADMINS: "${entry}" names service "${service}", not configured`);
    }
  }
  return entries;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw new ConfigError(`${name}: must be an integer >= ${min}, not "${raw}"`);
  }
  return Number(raw);
}

/**
 * `false`: the socket's address is the client's. A list: X-Forwarded-For is believed from peers
 * with these addresses, CIDR ranges or keywords (`loopback`, `linklocal`, `uniquelocal`). A
 * number: that many proxies stand in front, each appending the address it saw. Never `true`:
 * Fastify would take the leftmost X-Forwarded-For entry, which the client writes itself, and let
 * it pick its own rate-limit budget (hostile review, finding 1).
 */
export type TrustProxySetting = false | number | readonly string[];

const MAX_PROXY_HOPS = 10;

const list = (text: string) =>
  text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');

export function parseTrustProxy(raw: string | undefined): TrustProxySetting {
  const text = raw?.trim() ?? '';
  if (['', '0', 'false', 'no', 'off'].includes(text.toLowerCase())) return false;
  if (['true', 'yes', 'on'].includes(text.toLowerCase())) {
    throw new ConfigError(
      `TRUST_PROXY: "${text}" would let any client choose its own address; name the proxies' addresses or CIDR ranges (TRUST_PROXY=10.0.0.5), or give their hop count (TRUST_PROXY=1)`,
    );
  }
  if (/^[0-9]+$/.test(text)) {
    const hops = Number(text);
    if (hops < 1 || hops > MAX_PROXY_HOPS) {
      throw new ConfigError(
        `TRUST_PROXY: a hop count is 1-${MAX_PROXY_HOPS} (or "false" for no proxy), not ${text}`,
      );
    }
    return hops;
  }
  const entries = list(text);
  for (const entry of entries) {
    if (!isTrustedProxyEntry(entry)) {
      throw new ConfigError(
        `TRUST_PROXY: "${entry}" is not an IP address, a CIDR range, one of loopback, linklocal, uniquelocal, or a hop count`,
      );
    }
  }
  return entries;
}

/** Each entry an http(s) origin, as browsers send it (lower-case host, no default port, no path). */
export function parseCorsOrigins(raw: string | undefined): readonly string[] {
  return parseOrigins('CORS_ORIGINS', raw);
}

function parseOrigins(variable: string, raw: string | undefined): readonly string[] {
  const text = raw?.trim() ?? '';
  if (text === '' || text.toLowerCase() === 'none') return [];
  return list(text).map((entry) => {
    if (entry === '*') {
      throw new ConfigError(
        `${variable}: "*" is not accepted: name each origin (https://chat.example.com)`,
      );
    }
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    const bare =
      url !== undefined &&
      ['http:', 'https:'].includes(url.protocol) &&
      url.pathname === '/' &&
      !url.search &&
      !url.hash &&
      !url.username &&
      !url.password &&
      !entry.replace(/\/$/, '').endsWith('/');
    if (!url || !bare) {
      throw new ConfigError(
        `${variable}: "${entry}" is not an origin like https://chat.example.com`,
      );
    }
    return url.origin;
  });
}

/** Names nobody may get from a provider handle: they look official (hostile review, finding 5). */
export const DEFAULT_RESERVED_USERNAMES: readonly string[] = [
  'admin',
  'administrator',
  'root',
  'rocket.cat',
  'system',
  'support',
  'all',
  'here',
  'everyone',
  'moderator',
  'owner',
  'staff',
  'security',
  'abuse',
  'help',
  'info',
  'noreply',
  'no-reply',
  'postmaster',
  'hostmaster',
  'webmaster',
  'api',
  'avatar',
  'login',
  'logout',
  'me',
  'null',
  'undefined',
];

export function parseReservedUsernames(raw: string | undefined): readonly string[] {
  const text = raw?.trim() ?? '';
  if (text === '') return DEFAULT_RESERVED_USERNAMES;
  if (text.toLowerCase() === 'none') return [];
  return list(text).map((entry) => {
    const name = entry.toLowerCase();
    if (!/^[a-z0-9._-]{1,32}$/.test(name)) {
      throw new ConfigError(
        `RESERVED_USERNAMES: "${entry}" is not a username (letters, digits, ".", "_", "-")`,
      );
    }
    return name;
  });
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'on') return true;
  if (raw === 'off') return false;
  // JSON quoting: a control character in the value is shown escaped, never sent to a terminal.
  throw new ConfigError(`${name}: must be on or off, not ${JSON.stringify(env[name])}`);
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
  // ROOT_URL is Rocket.Chat's name for it; SITE_URL the earlier one, still read.
  if (env.ROOT_URL && env.SITE_URL && env.ROOT_URL.trim() !== env.SITE_URL.trim()) {
    throw new ConfigError('ROOT_URL and SITE_URL: set one of them (ROOT_URL), not two values');
  }
  const urlVariable = env.ROOT_URL ? 'ROOT_URL' : 'SITE_URL';
  const siteUrl = (
    env.ROOT_URL ||
    env.SITE_URL ||
    `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  )
    .trim()
    .replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s]+$/.test(siteUrl)) {
    throw new ConfigError(`${urlVariable}: must be an http(s) URL, not "${siteUrl}"`);
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
    sessionCache: onOff(env, 'SESSION_CACHE', true),
    redisUrl: env.REDIS_URL || undefined,
    loginExpirationSeconds: integer(env, 'LOGIN_EXPIRATION', 90 * DAY, 1),
    loginRateLimit: integer(env, 'LOGIN_RATE_LIMIT', 10, 1),
    apiRateLimit: integer(env, 'API_RATE_LIMIT', 120, 1),
    lockout: {
      attempts: integer(env, 'LOGIN_LOCKOUT_ATTEMPTS', 5, 1),
      seconds: integer(env, 'LOGIN_LOCKOUT_SECONDS', 300, 1),
      maxKeys: integer(env, 'LOCKOUT_MAX_ENTRIES', 100_000, 100),
    },
    provider: {
      timeoutMs: integer(env, 'PROVIDER_TIMEOUT_MS', 5000, 1),
      maxBytes: integer(env, 'PROVIDER_MAX_BYTES', 1024 * 1024, 1024),
    },
    idTokenMaxAgeSeconds: integer(env, 'ID_TOKEN_MAX_AGE', ID_TOKEN_MAX_AGE_DEFAULT_SECONDS, 1),
    oauth: {
      flowSeconds: integer(env, 'OAUTH_FLOW_TTL', OAUTH_DEFAULTS.flowSeconds, 10),
      credentialSeconds: integer(env, 'OAUTH_CREDENTIAL_TTL', OAUTH_DEFAULTS.credentialSeconds, 5),
      redirectOrigins: [
        new URL(siteUrl).origin,
        ...parseOrigins('OAUTH_REDIRECT_ORIGINS', env.OAUTH_REDIRECT_ORIGINS),
      ],
    },
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS),
    reservedUsernames: parseReservedUsernames(env.RESERVED_USERNAMES),
    logLevel: env.LOG_LEVEL || defaults.logLevel || 'info',
    services,
    servicesSource,
    twoFactorKey: twoFactorKey(env),
    admins: admins(env, services),
  };
}
