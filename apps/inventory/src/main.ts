import { migrate, openStore, type Store } from '@netops/store';
import { buildApp } from './app.js';
import { generatePassword, PasswordHasher } from './auth/passwords.js';
import { resolveJwtSecret } from './auth/secret.js';
import { seedInitialAccounts } from './auth/users.js';
import { type Config, loadConfig } from './config.js';
import { type Database, MIGRATIONS_FOLDER } from './db/schema.js';
import { DOCS_PREFIX, OPENAPI_PATH } from './http/openapi.js';
import { installGracefulShutdown } from './protections/index.js';

/**
 * Start-up: configuration (once, from the environment), store, migrations, initial accounts,
 * then listen. A bad configuration ends the process with a message and exit code 1.
 */
async function main() {
  const { config, jwtSecret } = readConfiguration();

  const store = await openStore<Database>({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    connectTimeoutMs: config.databaseTimeouts.connectMs,
    queryTimeoutMs: config.databaseTimeouts.queryMs,
  });
  await migrate(store as unknown as Store<unknown>, MIGRATIONS_FOLDER);

  const seedPassword = config.seedPassword ?? generatePassword();
  const created = await seedInitialAccounts(
    store.db,
    new PasswordHasher(config.passwordHashing),
    seedPassword,
  );

  const app = await buildApp({ ...config, jwtSecret }, { store });
  // SIGTERM/SIGINT: stop accepting, finish in-flight requests, then close the database.
  installGracefulShutdown(app, { onClose: () => store.close() });
  const address = await app.listen({ host: config.host, port: config.port });

  // Written to the terminal directly, never through the logger: log files keep no passwords.
  const lines = [
    `Network inventory API listening on ${address} (${store.description})`,
    `API documentation: ${address}${DOCS_PREFIX}/ (OpenAPI document: ${address}${OPENAPI_PATH})`,
  ];
  if (created.length > 0) {
    lines.push(
      `Initial accounts created: ${created.join(', ')}`,
      config.seedPassword === undefined
        ? `Their password (shown once, change it): ${seedPassword}`
        : 'Their password is the one in SEED_PASSWORD.',
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

function readConfiguration(): { config: Config; jwtSecret: string } {
  try {
    const config = loadConfig(process.env);
    return { config, jwtSecret: resolveJwtSecret(config) };
  } catch (error) {
    // A ConfigError lists every problem; anything else (an unreadable secret file) says what.
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Start-up failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
