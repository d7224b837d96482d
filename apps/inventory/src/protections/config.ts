import { isIP } from 'node:net';
import {
  type Environment,
  EnvironmentReader,
  parseCorsOrigins,
  parseTrustProxy,
  splitList,
  type TrustProxySetting,
} from '@netops/service-runtime';
import { INVENTORY_VARIABLES } from '../variables.js';
import { type AllowedHosts, type HostPattern, parseHost } from './host-guard.js';
import { DEFAULT_LOGIN_LOCKOUT, type LoginLockoutPolicy } from './login-lockout-policy.js';

/**
 * The protections' part of the service configuration, read once from the environment with the
 * core's (config.ts passes its reader; nothing here reads process.env). The variables are
 * declared with the service's others, in variables.ts. Every variable, default
 * and limit is documented in the app's README.md (section Protections).
 */
export interface ProtectionsConfig {
  /** Requests allowed per client IP and window; 0 turns rate limiting off. */
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** When set, rate-limit counters live in this Redis so that every instance shares one budget. */
  redisUrl: string | undefined;
  /** Which peers may tell the client's address through X-Forwarded-For (false: none; see TrustProxySetting). */
  trustProxy: TrustProxySetting;
  /** Origins (scheme://host[:port]) that browsers may call the API from. */
  corsOrigins: readonly string[];
  /** HTTPS when set. */
  tls: TlsFiles | undefined;
  /** Largest accepted request body in bytes. */
  bodyLimit: number;
  /** How long the HTTP server waits for slow or idle clients. */
  timeouts: ServerTimeouts;
  /** Host names the API answers besides IP literals and localhost (DNS rebinding). */
  allowedHosts: AllowedHosts;
  /** Failed logins allowed per account before delays (LOGIN_* variables). */
  loginLockout: LoginLockoutPolicy;
}

/**
 * Deliberate limits on slow and idle clients, in milliseconds. Without them Fastify
 * waits for a request body forever (its requestTimeout defaults to 0) and Node for headers 60 s.
 */
export interface ServerTimeouts {
  /** The request line and every header must arrive within this (slowloris). */
  headersMs: number;
  /** The whole request, headers and body, must arrive within this (a trickled body). */
  requestMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveMs: number;
  /** A socket with no traffic either way for this long is destroyed (slow readers); 0: never. */
  connectionMs: number;
}

export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** The usual local development servers (CRA/Next/Express, Angular, Vite, webpack/Vue CLI). */
export const DEFAULT_CORS_ORIGINS: readonly string[] = ['localhost', '127.0.0.1'].flatMap((host) =>
  [3000, 4200, 5173, 8080].map((port) => `http://${host}:${port}`),
);

export const PROTECTIONS_DEFAULTS = {
  rateLimitMax: 100,
  rateLimitWindowMs: 60_000,
  bodyLimit: 1024 * 1024,
  timeouts: {
    // Headers are a few hundred bytes: 10 s covers any real client on any real network.
    headersMs: 10_000,
    // A 1 MB body (BODY_LIMIT) at 300 kbit/s takes under 30 s.
    requestMs: 30_000,
    // Above the 60 s idle timeout of common load balancers (AWS ALB, nginx's keepalive_timeout
    // default 75 s being the exception), so that the proxy, not the API, closes an idle
    // connection and never sends a request onto one the API is closing (Fastify's own default).
    keepAliveMs: 72_000,
    // No byte in either direction for a minute: the client is gone or reads too slowly.
    connectionMs: 60_000,
  },
} as const;

/** The largest number these variables take (15 digits), as they always have. */
const LARGEST = 999_999_999_999_999;

/**
 * Reads and checks the protections' variables from `env` on their own, reporting all problems at
 * once (a ConfigError); empty variables count as unset. The service reads them with the rest of
 * its configuration instead (config.ts, through `readProtections`).
 */
export function readProtectionsConfig(env: Environment): ProtectionsConfig {
  const vars = new EnvironmentReader(env, INVENTORY_VARIABLES);
  const config = readProtections(vars);
  vars.finish();
  return config;
}

/**
 * The protections' variables, read through the service's reader: each problem is recorded there
 * (and a default used in its place), so the start-up reports them with every other one.
 */
export function readProtections(vars: EnvironmentReader): ProtectionsConfig {
  const defaults = PROTECTIONS_DEFAULTS;
  const certFile = vars.text('TLS_CERT_FILE');
  const keyFile = vars.text('TLS_KEY_FILE');
  if ((certFile === undefined) !== (keyFile === undefined)) {
    vars.problem('TLS_CERT_FILE and TLS_KEY_FILE: set both for HTTPS, or neither for HTTP');
  }
  return {
    rateLimitMax: vars.integer('RATE_LIMIT_MAX', defaults.rateLimitMax, 0, LARGEST),
    rateLimitWindowMs: vars.integer('RATE_LIMIT_WINDOW_MS', defaults.rateLimitWindowMs, 1, LARGEST),
    redisUrl: vars.url('REDIS_URL', ['redis', 'rediss']),
    trustProxy: vars.read('TRUST_PROXY', parseTrustProxy, false),
    corsOrigins: vars.read(
      'CORS_ORIGINS',
      (text) => parseCorsOrigins(text, DEFAULT_CORS_ORIGINS),
      DEFAULT_CORS_ORIGINS,
    ),
    tls: certFile !== undefined && keyFile !== undefined ? { certFile, keyFile } : undefined,
    bodyLimit: vars.integer('BODY_LIMIT', defaults.bodyLimit, 1, LARGEST),
    timeouts: readTimeouts(vars),
    allowedHosts: vars.read('ALLOWED_HOSTS', (text) => parseAllowedHosts(text, vars.text('HOST')), {
      any: false,
      names: [],
    }),
    loginLockout: readLoginLockout(vars),
  };
}

function readLoginLockout(vars: EnvironmentReader): LoginLockoutPolicy {
  const defaults = DEFAULT_LOGIN_LOCKOUT;
  const maxDelaySeconds = vars.integer(
    'LOGIN_MAX_DELAY_SECONDS',
    defaults.maxDelayMs / 1000,
    1,
    86_400,
  );
  return {
    ...defaults,
    failuresPerAddress: vars.integer(
      'LOGIN_FAILURES_PER_ADDRESS',
      defaults.failuresPerAddress,
      1,
      LARGEST,
    ),
    failuresPerAccount: vars.integer(
      'LOGIN_FAILURES_PER_ACCOUNT',
      defaults.failuresPerAccount,
      1,
      LARGEST,
    ),
    maxDelayMs: maxDelaySeconds * 1000,
  };
}

/**
 * ALLOWED_HOSTS: `*` (serve every Host), or a comma list of `name`, `name:port`, `.domain`
 * (the domain and every name under it), `[IPv6]`. The name HOST listens on, when it is a name,
 * is added. IP literals and localhost are served whatever the list says (see host-guard.ts).
 */
export function parseAllowedHosts(text: string | undefined, listenHost?: string): AllowedHosts {
  const names: HostPattern[] = [];
  if (listenHost !== undefined && listenHost !== '' && isIP(listenHost) === 0) {
    const parsed = parseHost(listenHost);
    if (parsed !== undefined) names.push({ name: parsed.name, port: undefined });
  }
  if (text === undefined || text === '') return { any: false, names };
  if (text === '*') return { any: true, names };
  for (const entry of splitList(text)) {
    const domain = entry.startsWith('.');
    const parsed = parseHost(domain ? entry.slice(1) : entry);
    if (entry === '*' || parsed === undefined) {
      throw new Error(
        `"${entry}" is not a host like inventory.example.com, inventory.example.com:8443 or .example.com ("*" alone allows every host)`,
      );
    }
    names.push({ name: domain ? `.${parsed.name}` : parsed.name, port: parsed.port });
  }
  return { any: false, names };
}

function readTimeouts(vars: EnvironmentReader): ServerTimeouts {
  const defaults = PROTECTIONS_DEFAULTS.timeouts;
  // 0 would mean "no limit" to Node for the first three: exactly what the limits prevent.
  const timeouts: ServerTimeouts = {
    headersMs: vars.integer('HEADERS_TIMEOUT_MS', defaults.headersMs, 1, LARGEST),
    requestMs: vars.integer('REQUEST_TIMEOUT_MS', defaults.requestMs, 1, LARGEST),
    keepAliveMs: vars.integer('KEEP_ALIVE_TIMEOUT_MS', defaults.keepAliveMs, 1, LARGEST),
    connectionMs: vars.integer('CONNECTION_TIMEOUT_MS', defaults.connectionMs, 0, LARGEST),
  };
  if (timeouts.headersMs > timeouts.requestMs) {
    vars.problem(
      'HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS (the headers are part of the request)',
    );
  }
  return timeouts;
}
