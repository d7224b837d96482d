import {
  describeListenError,
  findListenProblem,
  formatUsage,
  type LogOutput,
  openLogOutput,
  readCommandLine,
} from '@netops/service-runtime';
import type { Store } from '@netops/store';
import type { Config } from './config.js';
import type { Database } from './db/schema.js';
import { DOCS_PREFIX, OPENAPI_PATH } from './http/paths.js';

const USAGE = formatUsage({
  summary: 'Network inventory API: a REST API keeping an inventory of network assets.',
  command: 'npm start   (or: npm run inventory; node apps/inventory/dist/main.js once built)',
  variables: [
    ['PORT', 'TCP port (default 3000; 0 picks a free one)'],
    ['HOST', 'address to listen on (default 127.0.0.1)'],
    [
      'LOG_LEVEL',
      'fatal, error, warn, info, debug, trace, silent (default: warn on a terminal, info otherwise)',
    ],
    [
      'DATABASE_URL',
      'postgres://… for PostgreSQL, memory:// for a throwaway store; unset: embedded store in DATA_DIR',
    ],
    [
      'DATA_DIR',
      'folder of the embedded store and its generated JWT secret (default ./data/inventory)',
    ],
    [
      'EMBEDDED_DURABILITY',
      'on (default): each write is on disk before its answer; off: throwaway data only',
    ],
    [
      'SEED_PASSWORD',
      'password of the initial accounts on a first start (default: random, printed once)',
    ],
    ['JWT_SECRET', 'token signing secret, at least 32 characters (required with PostgreSQL)'],
    ['TOKEN_TTL', 'token lifetime, e.g. 3600, 30m, 24h (default 24h)'],
    ['TLS_CERT_FILE, TLS_KEY_FILE', 'serve HTTPS with this certificate and key'],
    ['SMTP_URL, MAIL_FROM', 'where password-reset e-mails go (default: files in DATA_DIR/outbox)'],
    ['REDIS_URL', 'rate-limit counters shared by several instances'],
    [
      'WEBHOOK_ALLOW_PRIVATE_TARGETS',
      'true: webhooks may call loopback/private addresses (other WEBHOOK_* in the README)',
    ],
  ],
  docs: [
    'README: apps/inventory/README.md (every variable, the API, the protections)',
    `API reference, served by the running service: http://127.0.0.1:3000${DOCS_PREFIX}/ (OpenAPI: ${OPENAPI_PATH})`,
  ],
});

/**
 * Start-up: command line (only --help), configuration (once, from the environment), store,
 * migrations, initial accounts, then listen. A bad configuration or a port that cannot be had
 * ends the process with one message and exit code 1.
 */
async function main() {
  const command = readCommandLine(process.argv.slice(2));
  if (command.action === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (command.action === 'refuse') fail(command.message, 2);

  const output = await openLogOutput();
  // Said at once: loading the service's modules takes a second or two (more under tsx), and a
  // first start then creates the database.
  output.print('Starting the network inventory API…');
  const [
    { migrate, openStore },
    { buildApp },
    { generatePassword, PasswordHasher },
    { seedInitialAccounts },
    { MIGRATIONS_FOLDER },
    { installGracefulShutdown },
  ] = await Promise.all([
    import('@netops/store'),
    import('./app.js'),
    import('./auth/passwords.js'),
    import('./auth/users.js'),
    import('./db/schema.js'),
    import('./protections/index.js'),
  ]);
  // Quiet on a terminal: warnings and errors, not a line per request (LOG_LEVEL=info shows them).
  const { config, jwtSecret } = await readConfiguration(output.pretty ? 'warn' : 'info');
  // A busy port is found before the store is opened, not after a first start's seconds.
  const portProblem = await findListenProblem(config.host, config.port);
  if (portProblem !== undefined) fail(portProblem);

  const store = await openStore<Database>({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    durable: config.embeddedDurability ?? true,
    connectTimeoutMs: config.databaseTimeouts.connectMs,
    queryTimeoutMs: config.databaseTimeouts.queryMs,
    onCreate: () =>
      output.print(`Creating the embedded database in ${config.dataDir} (first start only)…`),
  });
  await migrate(store as unknown as Store<unknown>, MIGRATIONS_FOLDER);

  const seedPassword = config.seedPassword ?? generatePassword();
  const created = await seedInitialAccounts(
    store.db,
    new PasswordHasher(config.passwordHashing),
    seedPassword,
  );

  const app = await buildApp({ ...config, jwtSecret }, { store, logStream: output.stream });
  // SIGTERM/SIGINT: stop accepting, finish in-flight requests, then close the database. The
  // log output gets a bounded moment to drain: a reader that is gone or stuck never holds the
  // exit.
  installGracefulShutdown(app, {
    onClose: () => store.close(),
    exit: (code) => exitAfterFlush(output, code),
  });
  let address: string;
  try {
    address = await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    const message = describeListenError(error, config.host, config.port);
    if (message === undefined) throw error;
    await app.close();
    await store.close();
    fail(message);
  }

  // Written to the terminal directly, never through the logger: log files keep no passwords.
  const lines = [
    `Network inventory API listening on ${address} (${store.description})`,
    `API documentation: ${address}${DOCS_PREFIX}/ (OpenAPI document: ${address}${OPENAPI_PATH})`,
    `Web interface: ${address}/ui/`,
  ];
  if (created.length > 0) {
    lines.push(
      `Initial accounts created: ${created.join(', ')}`,
      config.seedPassword === undefined
        ? `Their password (shown once, change it): ${seedPassword}`
        : 'Their password is the one in SEED_PASSWORD.',
    );
  }
  output.print(lines.join('\n'));
}

async function readConfiguration(defaultLogLevel: 'warn' | 'info'): Promise<{
  config: Config;
  jwtSecret: string;
}> {
  const [{ loadConfig }, { resolveJwtSecret }] = await Promise.all([
    import('./config.js'),
    import('./auth/secret.js'),
  ]);
  try {
    const config = loadConfig(process.env, { logLevel: defaultLogLevel });
    return { config, jwtSecret: resolveJwtSecret(config) };
  } catch (error) {
    // A ConfigError lists every problem; anything else (an unreadable secret file) says what.
    fail(error instanceof Error ? error.message : String(error));
  }
}

function exitAfterFlush(output: LogOutput, code: number): void {
  void output.flush(1000).then(() => process.exit(code));
}

function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Start-up failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
