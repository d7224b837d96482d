import {
  describeListenError,
  findListenProblem,
  formatUsage,
  type LogOutput,
  openLogOutput,
  readCommandLine,
} from '@netops/service-runtime';
import type { Store } from '@netops/store';
import type { Config, INVENTORY_VARIABLES } from './config.js';
import type { Database } from './db/schema.js';
import { DOCS_PREFIX, OPENAPI_PATH } from './http/paths.js';

/** --help: every variable, from the one list of them (config.ts). */
const usage = (variables: typeof INVENTORY_VARIABLES) =>
  formatUsage({
    summary: 'Network inventory API: a REST API keeping an inventory of network assets.',
    command:
      'npm start   (or: npm run inventory; node apps/inventory/dist/main.js once built)\n       npm run inventory -- create-admin <username>   (an admin account back, see README)',
    variables: variables.map(({ name, help }) => [name, help] as const),
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
  const args = process.argv.slice(2);
  if (args[0] === 'create-admin') {
    // The operator's way back to an admin account, without the API (README "Users").
    const { runCreateAdmin } = await import('./users/create-admin-command.js');
    process.exitCode = await runCreateAdmin(args.slice(1), process.env, {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
    });
    return;
  }
  const command = readCommandLine(args);
  if (command.action === 'help') {
    // Loaded here, not at the top: the start shows its first line before the heavy modules load.
    process.stdout.write(usage((await import('./config.js')).INVENTORY_VARIABLES));
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
