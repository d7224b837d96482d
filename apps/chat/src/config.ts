import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import {
  ConfigError,
  EnvironmentReader,
  type EnvVariable,
  formatAddress,
  type LogLevel,
  listenVariables,
  parseCorsOrigins,
  parseTrustProxy,
  readListenSettings,
  readStoreSettings,
  splitList,
  storeVariables,
  TRUST_PROXY_VARIABLE,
  type TrustProxySetting,
} from '@netops/service-runtime';
import { parse as parseYaml } from 'yaml';
import { ID_TOKEN_MAX_AGE_DEFAULT_SECONDS } from './providers/id-token.js';
import { providerTypeOf, SERVICE_TYPES, type ServiceConfig } from './providers/registry.js';
import { secureOrLoopback } from './providers/types.js';
import {
  eachSchemaErrorProblem,
  type FieldProblem,
  formatFieldProblem,
  validatorFor,
} from './validation.js';

/** A configuration problem found at start-up, naming the variable or key (the platform's). */
export { ConfigError, type TrustProxySetting } from '@netops/service-runtime';
export type { ServiceConfig, ServiceType } from './providers/registry.js';

// ---------------------------------------------------------------------------------------------
// The services file (CHAT_CONFIG): one entry per identity provider the service accepts.

/**
 * A URL as an error message may show it: as the file writes it (a `${NAME}` stays a name, never
 * its value, which may be a secret), without credentials, query or fragment (each may hold one).
 */
function shownUrl(written: string): string {
  return written
    .replace(/^([^:/?#]+:\/\/)[^/?#]*@/, '$1…@')
    .replace(/\?.*$/s, '?…')
    .replace(/#.*$/s, '#…');
}

/**
 * Keys that are the base of a provider's API (each provider type names its own): a trailing `/`
 * is dropped, and a query, fragment or credentials are refused. `written` is the entry before
 * `${NAME}` was substituted, which messages quote.
 */
function normaliseBaseUrls(
  service: Record<string, unknown>,
  written: Record<string, unknown>,
  keys: readonly string[],
  path: string,
  problems: FieldProblem[],
): void {
  for (const key of keys) {
    const value = service[key];
    if (typeof value !== 'string') continue;
    const shown = shownUrl(typeof written[key] === 'string' ? written[key] : '');
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      problems.push({ keys: [`${path}.${key}`], message: `not a URL: "${shown}"` });
      continue;
    }
    if (url.search || url.hash || url.username || url.password) {
      problems.push({
        keys: [`${path}.${key}`],
        message: `a base URL has no query, fragment or credentials: "${shown}"`,
      });
      continue;
    }
    service[key] = value.replace(/\/+$/, '');
  }
}

/**
 * Keys that decide whom the service trusts or where its secrets go (every base URL, an OIDC
 * token-info endpoint, Apple's keys): https, or http to a loopback host only (a provider on this
 * machine, as in tests and the demo).
 */
function requireSecureUrls(
  service: Record<string, unknown>,
  written: Record<string, unknown>,
  keys: readonly string[],
  path: string,
  problems: FieldProblem[],
): void {
  for (const key of keys) {
    const value = service[key];
    if (typeof value !== 'string' || !URL.canParse(value)) continue;
    if (secureOrLoopback(new URL(value))) continue;
    const shown = shownUrl(typeof written[key] === 'string' ? written[key] : '');
    problems.push({
      keys: [`${path}.${key}`],
      message: `must be https (http only to a loopback host: localhost, 127.0.0.1, [::1]): "${shown}"`,
    });
  }
}

const SERVICE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** `${NAME}`, or `${NAME:-default}` (the default when NAME is unset or empty), as in a shell. */
const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${NAME}` in every string of the parsed file; each missing variable is a problem
 * naming the key.
 */
function substituteEnv(
  value: unknown,
  path: string,
  env: NodeJS.ProcessEnv,
  problems: FieldProblem[],
): unknown {
  if (typeof value === 'string') {
    return value.replace(ENV_REFERENCE, (_match, name: string, fallback?: string) => {
      const replacement = env[name] || fallback;
      if (replacement === undefined || replacement === '') {
        problems.push({ keys: [path], message: `environment variable ${name} is not set` });
        return '';
      }
      return replacement;
    });
  }
  if (Array.isArray(value)) {
    return value.map((item, i) => substituteEnv(item, `${path}.${i}`, env, problems));
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        substituteEnv(item, `${path}.${key}`, env, problems),
      ]),
    );
  }
  return value;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Parses and validates the services file's text; `source` names it in error messages. Every
 * problem of every entry is reported at once (one ConfigError).
 */
export function parseServices(
  text: string,
  source: string,
  env: NodeJS.ProcessEnv,
): ServiceConfig[] {
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    // The parser's first line says where; the lines after it quote the file, secrets included.
    const where = (error as Error).message.split('\n')[0]?.replace(/:$/, '');
    throw new ConfigError(`${source}: not valid YAML: ${where}`);
  }
  if (document === null || document === undefined) return [];
  if (!isObject(document))
    throw new ConfigError(`${source}: must be a mapping with a "services" key`);
  const problems: FieldProblem[] = [];
  for (const key of Object.keys(document)) {
    if (key !== 'services') {
      problems.push({ keys: [key], message: 'unknown key (expected "services")' });
    }
  }
  const services = document.services ?? {};
  if (!isObject(services)) {
    problems.push({ keys: ['services'], message: 'must be a mapping of service names' });
  }
  const parsed = Object.entries(isObject(services) ? services : {}).flatMap(([name, raw]) => {
    const path = `services.${name}`;
    const entryProblems: FieldProblem[] = [];
    const problem = (key: string, message: string) => entryProblems.push({ keys: [key], message });
    if (!SERVICE_NAME.test(name)) {
      problem(path, 'a service name is 1-64 letters, digits, ".", "_" or "-"');
    }
    const type = isObject(raw) ? providerTypeOf(raw.type) : undefined;
    if (!isObject(raw)) problem(path, 'must be a mapping');
    else if (raw.type === undefined) problem(`${path}.type`, 'required');
    else if (!type) problem(`${path}.type`, `must be one of ${SERVICE_TYPES.join(', ')}`);
    if (!isObject(raw) || !type) {
      problems.push(...entryProblems);
      return [];
    }
    const unset: FieldProblem[] = [];
    const substituted = substituteEnv(raw, path, env, unset) as Record<string, unknown>;
    const validator = validatorFor(type.schema);
    if (!validator.Check(substituted)) {
      entryProblems.push(...eachSchemaErrorProblem([...validator.Errors(substituted)], path));
    }
    const named = (key: string) => entryProblems.some((found) => found.keys.includes(key));
    // One problem per key: a base URL the schema refused already is not checked again.
    const checkedKeys = type.baseUrlKeys.filter((key) => !named(`${path}.${key}`));
    normaliseBaseUrls(substituted, raw, checkedKeys, path, entryProblems);
    requireSecureUrls(
      substituted,
      raw,
      [...type.baseUrlKeys, ...(type.secureUrlKeys ?? [])].filter(
        (key) => !named(`${path}.${key}`),
      ),
      path,
      entryProblems,
    );
    // A key whose variable is unset is reported for that alone, not for the hole it left.
    const unsetKeys = new Set(unset.flatMap((found) => found.keys));
    problems.push(
      ...unset,
      ...entryProblems.filter((found) => !found.keys.some((key) => unsetKeys.has(key))),
    );
    if (unset.length > 0) return [];
    return entryProblems.length > 0
      ? []
      : [{ ...(substituted as Omit<ServiceConfig, 'name'>), name } as ServiceConfig];
  });
  if (problems.length > 0) throw new ConfigError(problems.map(formatFieldProblem));
  return parsed;
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
  /** EMBEDDED_SHARED_BUFFERS, in megabytes; unset: the store's default (32). */
  embeddedSharedBuffersMb?: number | undefined;
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
  logLevel: LogLevel;
  services: ServiceConfig[];
  /** Where the services came from, for the start-up message. */
  servicesSource: string;
  /** AES-256-GCM key for TOTP secrets (TWO_FACTOR_KEY); without it TOTP cannot be enabled. */
  twoFactorKey?: Buffer | undefined;
  /** Provider accounts that are admins, as `service:providerUserId` (CHAT_ADMINS). */
  admins?: readonly string[];
}

const DEFAULT_PORT = 3100;
const DEFAULT_DATA_DIR = 'data/chat';

/**
 * Every environment variable the service reads, with the line `--help` prints for it: the one
 * list (the reader refuses a name that is not here). The README documents each.
 */
export const CHAT_VARIABLES: readonly EnvVariable[] = [
  ...listenVariables(DEFAULT_PORT),
  {
    name: 'CHAT_CONFIG',
    help: 'the services file (default ./chat.config.yaml); apps/chat/chat.demo.yaml for the demo',
  },
  {
    name: 'ROOT_URL',
    help: 'public base URL, as in Rocket.Chat; the OAuth callback is ROOT_URL/_oauth/<service> (default http://HOST:PORT)',
  },
  { name: 'SITE_URL', help: 'the earlier name of ROOT_URL, still read' },
  ...Object.values(storeVariables(DEFAULT_DATA_DIR)),
  { name: 'REDIS_URL', help: 'rate-limit and lock-out counters shared by several instances' },
  {
    name: 'SESSION_CACHE',
    help: 'on (default): valid sessions kept between checks; off: each check reads',
  },
  { name: 'LOGIN_EXPIRATION', help: 'longest session in seconds (default 7776000, 90 days)' },
  { name: 'LOGIN_RATE_LIMIT', help: 'logins per client address per minute (default 10)' },
  { name: 'API_RATE_LIMIT', help: 'other requests per client address per minute (default 120)' },
  { name: 'LOGIN_LOCKOUT_ATTEMPTS', help: 'failed attempts before an account locks (default 5)' },
  { name: 'LOGIN_LOCKOUT_SECONDS', help: 'how long a lock lasts, in seconds (default 300)' },
  {
    name: 'LOCKOUT_MAX_ENTRIES',
    help: 'lock-out entries held in memory, at least 100 (default 100000)',
  },
  { name: 'PROVIDER_TIMEOUT_MS', help: 'budget of one provider check, in ms (default 5000)' },
  { name: 'PROVIDER_MAX_BYTES', help: 'largest provider answer read (default 1048576)' },
  TRUST_PROXY_VARIABLE,
  { name: 'CORS_ORIGINS', help: 'origins browsers may call from, comma-separated (default: none)' },
  { name: 'RESERVED_USERNAMES', help: 'usernames never given out, or "none" (default: a list)' },
  { name: 'TWO_FACTOR_KEY', help: '32-byte key sealing TOTP secrets (openssl rand -base64 32)' },
  { name: 'CHAT_ADMINS', help: 'admin accounts as service:providerUserId, comma-separated' },
  {
    name: 'ID_TOKEN_MAX_AGE',
    help: 'oldest ID token accepted, seconds since its iat (default 600)',
  },
  {
    name: 'OAUTH_FLOW_TTL',
    help: "seconds from the start of a sign-in flow to the provider's return (default 600)",
  },
  {
    name: 'OAUTH_CREDENTIAL_TTL',
    help: 'seconds a pending credential waits for its login (default 120)',
  },
  {
    name: 'OAUTH_REDIRECT_ORIGINS',
    help: "origins besides ROOT_URL's a redirect-style sign-in may return to, comma-separated",
  },
  {
    name: 'OAUTH_MOBILE_APP_RETURN',
    help: "on|off: a redirect-style sign-in may end at Rocket.Chat's app link rocketchat://auth (default off; see the README's risk)",
  },
];

export interface OAuthFlowConfig {
  /** Seconds from the start of a flow to the provider's return (OAUTH_FLOW_TTL). */
  flowSeconds: number;
  /** Seconds a pending credential waits for its login (OAUTH_CREDENTIAL_TTL). */
  credentialSeconds: number;
  /** Origins a `redirect`-style flow may return to (OAUTH_REDIRECT_ORIGINS; ROOT_URL's origin). */
  redirectOrigins: readonly string[];
  /**
   * Whether such a flow may end at Rocket.Chat's mobile app link (OAUTH_MOBILE_APP_RETURN). Off
   * by default: a flow started at the provider is bound to no browser, so a link made by someone
   * signed in there would sign whichever phone opens it into their account.
   */
  mobileAppReturn: boolean;
}

export const OAUTH_DEFAULTS = {
  flowSeconds: 600,
  credentialSeconds: 120,
  mobileAppReturn: false,
} as const;

/** TWO_FACTOR_KEY: 32 bytes as 64 hex digits or base64 (`openssl rand -base64 32`). */
function parseTwoFactorKey(raw: string | undefined): Buffer | undefined {
  if (raw === undefined) return undefined;
  const key = /^[0-9a-fA-F]{64}$/.test(raw)
    ? Buffer.from(raw, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(raw)
      ? Buffer.from(raw, raw.includes('-') || raw.includes('_') ? 'base64url' : 'base64')
      : undefined;
  if (key?.length !== 32) {
    throw new Error('must be 32 bytes as 64 hex digits or base64 (openssl rand -base64 32)');
  }
  return key;
}

/** CHAT_ADMINS: `service:providerUserId`, comma-separated, each naming a configured service. */
function parseAdmins(raw: string | undefined, services: readonly ServiceConfig[]): string[] {
  const entries = splitList(raw ?? '');
  for (const entry of entries) {
    const colon = entry.indexOf(':');
    const service = entry.slice(0, colon);
    if (colon < 1 || colon === entry.length - 1) {
      throw new Error(`"${entry}" is not service:providerUserId (e.g. github:583231)`);
    }
    if (!services.some((configured) => configured.name === service)) {
      throw new Error(`"${entry}" names service "${service}", not configured`);
    }
  }
  return entries;
}

/** Names nobody may get from a provider handle: they look official. */
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
  return splitList(text).map((entry) => {
    const name = entry.toLowerCase();
    if (!/^[a-z0-9._-]{1,32}$/.test(name)) {
      throw new Error(`"${entry}" is not a username (letters, digits, ".", "_", "-")`);
    }
    return name;
  });
}

const DAY = 24 * 60 * 60;

/**
 * The largest value each numeric variable takes (README, "Configuration"): past them a timestamp
 * overflows a date or a timer (Node's timers hold at most 2^31 - 1 ms), and no deployment needs more.
 */
export const MAXIMA = {
  LOGIN_EXPIRATION: 3650 * DAY,
  LOGIN_RATE_LIMIT: 1_000_000_000,
  API_RATE_LIMIT: 1_000_000_000,
  LOGIN_LOCKOUT_ATTEMPTS: 1000,
  LOGIN_LOCKOUT_SECONDS: 7 * DAY,
  LOCKOUT_MAX_ENTRIES: 10_000_000,
  PROVIDER_TIMEOUT_MS: 60_000,
  PROVIDER_MAX_BYTES: 64 * 1024 * 1024,
  ID_TOKEN_MAX_AGE: DAY,
  OAUTH_FLOW_TTL: 3600,
  OAUTH_CREDENTIAL_TTL: 3600,
} as const;

/** The services file's text, or why it cannot be read, or `missing`. */
function readServicesFile(
  path: string,
): { kind: 'text'; text: string } | { kind: 'missing' } | { kind: 'problem'; problem: string } {
  if (!existsSync(path)) return { kind: 'missing' };
  try {
    if (statSync(path).isDirectory())
      return { kind: 'problem', problem: 'is a directory, not a file' };
    return { kind: 'text', text: readFileSync(path, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { kind: 'problem', problem: `cannot be read (${code ?? (error as Error).message})` };
  }
}

/**
 * Reads the environment and the services file once; throws ConfigError listing every bad
 * setting (one per line when there are several).
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
  /** LOG_LEVEL when unset: main.ts passes `warn` when stdout is a terminal (quiet by default). */
  defaults: { logLevel?: LogLevel } = {},
): AppConfig {
  const vars = new EnvironmentReader(env, CHAT_VARIABLES);
  const { host, port, logLevel } = readListenSettings(
    vars,
    DEFAULT_PORT,
    defaults.logLevel ?? 'info',
  );
  // ROOT_URL is Rocket.Chat's name for it; SITE_URL the earlier one, still read.
  const rootUrl = vars.text('ROOT_URL');
  const oldSiteUrl = vars.text('SITE_URL');
  if (rootUrl !== undefined && oldSiteUrl !== undefined && rootUrl !== oldSiteUrl) {
    vars.problem('ROOT_URL and SITE_URL: set one of them (ROOT_URL), not two values');
  }
  const urlVariable = rootUrl !== undefined ? 'ROOT_URL' : 'SITE_URL';
  const siteUrl = vars.read(
    urlVariable,
    (text) => {
      const url = (text ?? `http://${formatAddress(host, port)}`).replace(/\/+$/, '');
      if (!/^https?:\/\/[^\s]+$/.test(url)) {
        throw new Error(`must be an http(s) URL, not "${shownUrl(url)}"`);
      }
      // Its origin is where redirect-style sign-ins may return: it must be one, and say no
      // password (it is shown to every client in avatar URLs).
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new Error(`must be an http(s) URL, not "${shownUrl(url)}"`);
      }
      if (parsed.username !== '' || parsed.password !== '') {
        throw new Error('must not hold credentials (user:password@)');
      }
      // A base: paths are appended to it (the OAuth callback, avatars), which a query or a
      // fragment would silently break, and a redirect_uri has no fragment (RFC 6749 3.1.2).
      if (parsed.search !== '' || parsed.hash !== '' || /[?#]/.test(url)) {
        throw new Error(`a base URL has no query or fragment: "${shownUrl(url)}"`);
      }
      return url;
    },
    'http://127.0.0.1',
  );

  const configText = vars.text('CHAT_CONFIG');
  const configPath = resolve(cwd, configText ?? 'chat.config.yaml');
  let services: ServiceConfig[] = [];
  let servicesSource = `no file at ${configPath}`;
  const configFile = readServicesFile(configPath);
  if (configFile.kind === 'text') {
    try {
      services = parseServices(configFile.text, configPath, env);
      servicesSource = configPath;
    } catch (error) {
      // A problem inside the services file names its key (services.github.appId).
      if (!(error instanceof ConfigError)) throw error;
      vars.problem(...error.problems);
    }
  } else if (configFile.kind === 'problem') {
    vars.problem(`CHAT_CONFIG: ${configPath} ${configFile.problem}`);
  } else if (configText !== undefined) {
    vars.problem(`CHAT_CONFIG: ${configPath} does not exist`);
  }

  const config: AppConfig = {
    host,
    port,
    siteUrl,
    ...readStoreSettings(vars, DEFAULT_DATA_DIR, cwd),
    sessionCache: vars.onOff('SESSION_CACHE', true),
    redisUrl: vars.url('REDIS_URL', ['redis', 'rediss']),
    loginExpirationSeconds: vars.integer('LOGIN_EXPIRATION', 90 * DAY, 1, MAXIMA.LOGIN_EXPIRATION),
    loginRateLimit: vars.integer('LOGIN_RATE_LIMIT', 10, 1, MAXIMA.LOGIN_RATE_LIMIT),
    apiRateLimit: vars.integer('API_RATE_LIMIT', 120, 1, MAXIMA.API_RATE_LIMIT),
    lockout: {
      attempts: vars.integer('LOGIN_LOCKOUT_ATTEMPTS', 5, 1, MAXIMA.LOGIN_LOCKOUT_ATTEMPTS),
      seconds: vars.integer('LOGIN_LOCKOUT_SECONDS', 300, 1, MAXIMA.LOGIN_LOCKOUT_SECONDS),
      maxKeys: vars.integer('LOCKOUT_MAX_ENTRIES', 100_000, 100, MAXIMA.LOCKOUT_MAX_ENTRIES),
    },
    provider: {
      timeoutMs: vars.integer('PROVIDER_TIMEOUT_MS', 5000, 1, MAXIMA.PROVIDER_TIMEOUT_MS),
      maxBytes: vars.integer('PROVIDER_MAX_BYTES', 1024 * 1024, 1024, MAXIMA.PROVIDER_MAX_BYTES),
    },
    idTokenMaxAgeSeconds: vars.integer(
      'ID_TOKEN_MAX_AGE',
      ID_TOKEN_MAX_AGE_DEFAULT_SECONDS,
      1,
      MAXIMA.ID_TOKEN_MAX_AGE,
    ),
    oauth: {
      flowSeconds: vars.integer(
        'OAUTH_FLOW_TTL',
        OAUTH_DEFAULTS.flowSeconds,
        10,
        MAXIMA.OAUTH_FLOW_TTL,
      ),
      credentialSeconds: vars.integer(
        'OAUTH_CREDENTIAL_TTL',
        OAUTH_DEFAULTS.credentialSeconds,
        5,
        MAXIMA.OAUTH_CREDENTIAL_TTL,
      ),
      redirectOrigins: [
        new URL(siteUrl).origin,
        ...vars.read('OAUTH_REDIRECT_ORIGINS', (text) => parseCorsOrigins(text, []), []),
      ],
      mobileAppReturn: vars.onOff('OAUTH_MOBILE_APP_RETURN', OAUTH_DEFAULTS.mobileAppReturn),
    },
    trustProxy: vars.read('TRUST_PROXY', parseTrustProxy, false),
    // None by default: the service's clients are apps, not pages of other sites.
    corsOrigins: vars.read('CORS_ORIGINS', (text) => parseCorsOrigins(text, []), []),
    reservedUsernames: vars.read(
      'RESERVED_USERNAMES',
      parseReservedUsernames,
      DEFAULT_RESERVED_USERNAMES,
    ),
    logLevel,
    services,
    servicesSource,
    twoFactorKey: vars.read('TWO_FACTOR_KEY', parseTwoFactorKey, undefined),
    admins: vars.read('CHAT_ADMINS', (text) => parseAdmins(text, services), []),
  };
  vars.finish();
  return config;
}

/** A port free on `host` now (the system's choice), or undefined when none can be had there. */
function freePort(host: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen({ host, port: 0 }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : undefined;
      server.close(() => resolve(port));
    });
  });
}

/**
 * `PORT=0` (any free port) without ROOT_URL: the port is chosen here, before the service is
 * built, so that the default ROOT_URL (`http://HOST:PORT`, in every advertised URL: the OAuth
 * redirect_uri, settings.oauth, the OpenAPI servers, avatar URLs) names the port it listens on,
 * not 0. With ROOT_URL set, or another PORT, the configuration is returned as it is. When no port
 * can be had, PORT stays 0 and listening reports why.
 */
export async function withChosenPort(
  config: AppConfig,
  env: NodeJS.ProcessEnv,
): Promise<AppConfig> {
  const rootUrlGiven = [env.ROOT_URL, env.SITE_URL].some((value) => (value?.trim() ?? '') !== '');
  if (config.port !== 0 || rootUrlGiven) return config;
  const port = await freePort(config.host);
  if (port === undefined) return config;
  const siteUrl = `http://${formatAddress(config.host, port)}`;
  const origin = new URL(siteUrl).origin;
  return {
    ...config,
    port,
    siteUrl,
    ...(config.oauth
      ? {
          oauth: {
            ...config.oauth,
            redirectOrigins: [origin, ...config.oauth.redirectOrigins.slice(1)],
          },
        }
      : {}),
  };
}
