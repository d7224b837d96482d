import { isIP } from 'node:net';
import {
  parseCorsOrigins,
  parseTrustProxy,
  splitList,
  type TrustProxySetting,
} from '@netops/service-runtime';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { type AllowedHosts, type HostPattern, parseHost } from './host-guard.js';
import { DEFAULT_LOGIN_LOCKOUT, type LoginLockoutPolicy } from './login-lockout-policy.js';

/**
 * The protections' part of the service configuration, read once from the environment by the
 * core's config.ts (which passes `env`; nothing here reads process.env). Every variable, default
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

const integerText = (description: string) =>
  Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description }));

/**
 * The variables as the environment gives them (text); `readProtectionsConfig` checks them against
 * this schema, then converts. The core may merge these properties into its own schema.
 */
export const ProtectionsEnvSchema = Type.Object({
  RATE_LIMIT_MAX: integerText('Requests per client IP and window; 0 turns the limit off'),
  RATE_LIMIT_WINDOW_MS: integerText('Rate-limit window in milliseconds'),
  REDIS_URL: Type.Optional(
    Type.String({ pattern: '^rediss?://', description: 'Shared rate-limit counters' }),
  ),
  TRUST_PROXY: Type.Optional(
    Type.String({ description: 'Comma list of trusted proxy addresses, CIDRs or keywords' }),
  ),
  CORS_ORIGINS: Type.Optional(
    Type.String({ description: 'Comma list of allowed browser origins, or "none"' }),
  ),
  TLS_CERT_FILE: Type.Optional(Type.String({ description: 'PEM certificate (chain) for HTTPS' })),
  TLS_KEY_FILE: Type.Optional(Type.String({ description: 'PEM private key for HTTPS' })),
  BODY_LIMIT: integerText('Largest request body in bytes'),
  HEADERS_TIMEOUT_MS: integerText('Time allowed to receive the request headers'),
  REQUEST_TIMEOUT_MS: integerText('Time allowed to receive the whole request'),
  KEEP_ALIVE_TIMEOUT_MS: integerText('Idle time before a kept-alive connection is closed'),
  CONNECTION_TIMEOUT_MS: integerText('Inactivity before a socket is destroyed; 0: never'),
  ALLOWED_HOSTS: Type.Optional(
    Type.String({ description: 'Comma list of host names (host or host:port) served, or "*"' }),
  ),
  LOGIN_FAILURES_PER_ADDRESS: integerText('Failed logins per account and address before delays'),
  LOGIN_FAILURES_PER_ACCOUNT: integerText('Failed logins per account before delays'),
  LOGIN_MAX_DELAY_SECONDS: integerText('Longest delay after failed logins, in seconds'),
});

type ProtectionsEnv = Partial<Record<keyof typeof ProtectionsEnvSchema.properties, string>>;

/** Carries every problem found, so the core can merge them into its own start-up report. */
export class ProtectionsConfigError extends Error {
  override name = 'ProtectionsConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

/**
 * Reads and checks the protections' variables from `env`, reporting all problems at once.
 * Empty variables count as unset.
 */
export function readProtectionsConfig(env: Record<string, string | undefined>): ProtectionsConfig {
  const present = Object.fromEntries(
    Object.keys(ProtectionsEnvSchema.properties)
      .map((name) => [name, env[name]?.trim()] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const problems: string[] = [];
  if (!Value.Check(ProtectionsEnvSchema, present)) {
    for (const error of Value.Errors(ProtectionsEnvSchema, present)) {
      problems.push(`${error.instancePath.slice(1) || 'environment'}: ${error.message}`);
    }
  }
  const vars = present as ProtectionsEnv;

  const rateLimitWindowMs = Number(
    vars.RATE_LIMIT_WINDOW_MS ?? PROTECTIONS_DEFAULTS.rateLimitWindowMs,
  );
  if (rateLimitWindowMs < 1) problems.push('RATE_LIMIT_WINDOW_MS: must be at least 1');
  const bodyLimit = Number(vars.BODY_LIMIT ?? PROTECTIONS_DEFAULTS.bodyLimit);
  if (bodyLimit < 1) problems.push('BODY_LIMIT: must be at least 1');

  const timeouts = readTimeouts(vars, problems);

  const trustProxy = collect(problems, 'TRUST_PROXY', () => parseTrustProxy(vars.TRUST_PROXY));
  const corsOrigins = collect(problems, 'CORS_ORIGINS', () =>
    parseCorsOrigins(vars.CORS_ORIGINS, DEFAULT_CORS_ORIGINS),
  );
  const allowedHosts = collect(problems, 'ALLOWED_HOSTS', () =>
    parseAllowedHosts(vars.ALLOWED_HOSTS, env.HOST?.trim()),
  );
  const loginLockout = readLoginLockout(vars, problems);

  const { TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile } = vars;
  if ((certFile === undefined) !== (keyFile === undefined)) {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE: set both for HTTPS, or neither for HTTP');
  }

  if (problems.length > 0) throw new ProtectionsConfigError(problems);
  return {
    rateLimitMax: Number(vars.RATE_LIMIT_MAX ?? PROTECTIONS_DEFAULTS.rateLimitMax),
    rateLimitWindowMs,
    redisUrl: vars.REDIS_URL,
    trustProxy: trustProxy ?? false,
    corsOrigins: corsOrigins ?? DEFAULT_CORS_ORIGINS,
    tls: certFile !== undefined && keyFile !== undefined ? { certFile, keyFile } : undefined,
    bodyLimit,
    timeouts,
    allowedHosts: allowedHosts ?? { any: false, names: [] },
    loginLockout,
  };
}

function readLoginLockout(vars: ProtectionsEnv, problems: string[]): LoginLockoutPolicy {
  const policy: LoginLockoutPolicy = {
    ...DEFAULT_LOGIN_LOCKOUT,
    failuresPerAddress: Number(
      vars.LOGIN_FAILURES_PER_ADDRESS ?? DEFAULT_LOGIN_LOCKOUT.failuresPerAddress,
    ),
    failuresPerAccount: Number(
      vars.LOGIN_FAILURES_PER_ACCOUNT ?? DEFAULT_LOGIN_LOCKOUT.failuresPerAccount,
    ),
    maxDelayMs:
      vars.LOGIN_MAX_DELAY_SECONDS === undefined
        ? DEFAULT_LOGIN_LOCKOUT.maxDelayMs
        : Number(vars.LOGIN_MAX_DELAY_SECONDS) * 1000,
  };
  if (policy.failuresPerAddress < 1)
    problems.push('LOGIN_FAILURES_PER_ADDRESS: must be at least 1');
  if (policy.failuresPerAccount < 1)
    problems.push('LOGIN_FAILURES_PER_ACCOUNT: must be at least 1');
  if (policy.maxDelayMs < 1000 || policy.maxDelayMs > 86_400_000) {
    problems.push('LOGIN_MAX_DELAY_SECONDS: must be 1 to 86400');
  }
  return policy;
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

function readTimeouts(vars: ProtectionsEnv, problems: string[]): ServerTimeouts {
  const defaults = PROTECTIONS_DEFAULTS.timeouts;
  const timeouts: ServerTimeouts = {
    headersMs: Number(vars.HEADERS_TIMEOUT_MS ?? defaults.headersMs),
    requestMs: Number(vars.REQUEST_TIMEOUT_MS ?? defaults.requestMs),
    keepAliveMs: Number(vars.KEEP_ALIVE_TIMEOUT_MS ?? defaults.keepAliveMs),
    connectionMs: Number(vars.CONNECTION_TIMEOUT_MS ?? defaults.connectionMs),
  };
  // 0 would mean "no limit" to Node for these three: exactly what the limits are there to prevent.
  if (timeouts.headersMs < 1) problems.push('HEADERS_TIMEOUT_MS: must be at least 1');
  if (timeouts.requestMs < 1) problems.push('REQUEST_TIMEOUT_MS: must be at least 1');
  if (timeouts.keepAliveMs < 1) problems.push('KEEP_ALIVE_TIMEOUT_MS: must be at least 1');
  if (timeouts.headersMs > timeouts.requestMs) {
    problems.push(
      'HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS (the headers are part of the request)',
    );
  }
  return timeouts;
}

function collect<T>(problems: string[], name: string, parse: () => T): T | undefined {
  try {
    return parse();
  } catch (error) {
    problems.push(`${name}: ${(error as Error).message}`);
    return undefined;
  }
}
