import {
  type EnvVariable,
  listenVariables,
  storeVariables,
  TRUST_PROXY_VARIABLE,
} from '@netops/service-runtime';

export const DEFAULT_PORT = 3000;
export const DEFAULT_DATA_DIR = 'data/inventory';

const store = storeVariables(DEFAULT_DATA_DIR, 'the embedded store and its generated JWT secret');

/**
 * Every environment variable the service reads (its own and the protections'), with the line
 * `--help` prints for it: the one list. Both readers (config.ts, protections/config.ts) read
 * through an EnvironmentReader over it, which refuses a name that is not here; a test checks
 * that each name here is read. The README documents each. Kept apart from the readers so that
 * `--help` prints it without loading them.
 */
export const INVENTORY_VARIABLES: readonly EnvVariable[] = [
  ...listenVariables(DEFAULT_PORT),
  store.databaseUrl,
  {
    name: 'DATABASE_CONNECT_TIMEOUT_MS',
    help: 'PostgreSQL: longest wait for a connection, ms (default 5000)',
  },
  {
    name: 'DATABASE_QUERY_TIMEOUT_MS',
    help: 'PostgreSQL: longest wait for one statement, ms (default 30000; 0: none)',
  },
  {
    name: 'DATABASE_POOL_SIZE',
    help: 'PostgreSQL: statements run at once, writes first (default 10, 1 to 1000)',
  },
  {
    name: 'DATABASE_READS_BESIDE_WRITES',
    help: 'PostgreSQL: reads started while some writes run (default a fifth of the pool, at least 1)',
  },
  store.dataDir,
  store.embeddedDurability,
  store.embeddedSharedBuffers,
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
  // The protections (protections/config.ts).
  {
    name: 'RATE_LIMIT_MAX',
    help: 'requests per client address and window; 0 turns the limit off (default 100)',
  },
  { name: 'RATE_LIMIT_WINDOW_MS', help: 'rate-limit window in ms (default 60000)' },
  {
    name: 'REDIS_URL',
    help: 'redis(s)://… holding the rate-limit counters every instance shares (default: in memory)',
  },
  TRUST_PROXY_VARIABLE,
  {
    name: 'CORS_ORIGINS',
    help: 'origins browsers may call from, comma-separated, or none (default: local dev servers)',
  },
  { name: 'TLS_CERT_FILE', help: 'PEM certificate (chain); with TLS_KEY_FILE the API is HTTPS' },
  { name: 'TLS_KEY_FILE', help: 'PEM private key for HTTPS' },
  { name: 'BODY_LIMIT', help: 'largest request body in bytes (default 1048576)' },
  { name: 'HEADERS_TIMEOUT_MS', help: 'time to receive the request headers, ms (default 10000)' },
  { name: 'REQUEST_TIMEOUT_MS', help: 'time to receive the whole request, ms (default 30000)' },
  {
    name: 'KEEP_ALIVE_TIMEOUT_MS',
    help: 'idle time before a kept-alive connection closes, ms (default 72000)',
  },
  {
    name: 'CONNECTION_TIMEOUT_MS',
    help: 'silence before a socket is destroyed, ms; 0: never (default 60000)',
  },
  {
    name: 'ALLOWED_HOSTS',
    help: 'host names served besides IP literals and localhost (name, name:port, .domain), or *',
  },
  {
    name: 'LOGIN_FAILURES_PER_ADDRESS',
    help: 'failed logins per account and address before delays (default 5)',
  },
  {
    name: 'LOGIN_FAILURES_PER_ACCOUNT',
    help: 'failed logins per account before delays (default 20)',
  },
  {
    name: 'LOGIN_MAX_DELAY_SECONDS',
    help: 'longest delay after failed logins, 1 to 86400 s (default 900)',
  },
  // The outbound webhooks.
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
