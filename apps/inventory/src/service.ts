import { type ServiceDefinition, StartRefusal } from '@netops/service-runtime';
import type { Store } from '@netops/store';
import type { Config } from './config.js';
import type { Database } from './db/schema.js';
import { DOCS_PREFIX, OPENAPI_PATH } from './http/paths.js';
import { INVENTORY_VARIABLES } from './variables.js';

/** The configuration and the JWT secret it resolves to (given, or generated and kept). */
type StartConfig = Config & { jwtSecret: string };

/**
 * The inventory as the platform's runService starts it (main.ts): --help, the `create-admin`
 * command, the configuration, then the store, its migrations and the initial accounts. The
 * service's modules load only once the first line is out: loading them takes a second or two
 * (more under tsx), and `--help` never needs them.
 */
export const inventoryService: ServiceDefinition<StartConfig> = {
  usage: {
    summary: 'Network inventory API: a REST API keeping an inventory of network assets.',
    command:
      'npm start   (or: npm run inventory; node apps/inventory/dist/main.js once built)\n       npm run inventory -- create-admin <username>   (an admin account back, see README)',
    docs: [
      'README: apps/inventory/README.md (every variable, the API, the protections)',
      `API reference, served by the running service: http://127.0.0.1:3000${DOCS_PREFIX}/ (OpenAPI: ${OPENAPI_PATH})`,
    ],
  },
  variables: INVENTORY_VARIABLES,
  commands: {
    // The operator's way back to an admin account, without the API (README "Users").
    'create-admin': async (args, env, io) => {
      const { runCreateAdmin } = await import('./users/create-admin-command.js');
      return runCreateAdmin(args, env, { out: io.stdout, err: io.stderr });
    },
  },
  startingLine: 'Starting the network inventory API…',

  async configure(env, logLevel) {
    const [{ loadConfig }, { resolveJwtSecret }] = await Promise.all([
      import('./config.js'),
      import('./auth/secret.js'),
    ]);
    const config = loadConfig(env, { logLevel });
    return { ...config, jwtSecret: resolveJwtSecret(config) };
  },

  async start(config, { output, note, fail }) {
    const [
      { embeddedUpkeepNotes, migrate, openStore, readServerUpkeepWarning, StoreOpenError },
      { buildApp },
      { generatePassword, PasswordHasher },
      { seedInitialAccounts },
      { MIGRATIONS_FOLDER },
      { RedisConnectError },
    ] = await Promise.all([
      import('@netops/store'),
      import('./app.js'),
      import('./auth/passwords.js'),
      import('./auth/users.js'),
      import('./db/schema.js'),
      import('./protections/index.js'),
    ]);
    // A store refusing to open says why in a line of its own (DATA_DIR held by another
    // process, or not a database): printed as it is, without a stack.
    const store = await openStore<Database>({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      durable: config.embeddedDurability ?? true,
      sharedBuffersMb: config.embeddedSharedBuffersMb,
      connectTimeoutMs: config.databaseTimeouts.connectMs,
      queryTimeoutMs: config.databaseTimeouts.queryMs,
      poolSize: config.databasePoolSize,
      readsBesideWrites: config.databaseReadsBesideWrites,
      migrations: MIGRATIONS_FOLDER,
      ...embeddedUpkeepNotes(note),
      // The embedded PostgreSQL failed past recovery (a PANIC: a WAL write on a full disk):
      // exit 1 to be restarted, which recovers every committed write, instead of going on.
      onFailure: (error) => fail(error.message),
      onCreate: () =>
        output.print(`Creating the embedded database in ${config.dataDir} (first start only)…`),
    }).catch((error: unknown) => {
      throw error instanceof StoreOpenError ? new StartRefusal(error.message) : error;
    });
    try {
      // A database a newer release migrated is refused in one line (NewerSchemaError); an
      // upgrade says what it applies, and how long it took.
      await migrate(store as unknown as Store<unknown>, MIGRATIONS_FOLDER, {
        announce: (line) => output.print(line),
      }).catch((error: unknown) => {
        throw error instanceof StoreOpenError ? new StartRefusal(error.message) : error;
      });
      const upkeepWarning = await readServerUpkeepWarning(store.db, store.kind);
      if (upkeepWarning) note(upkeepWarning, 40);
      const seedPassword = config.seedPassword ?? generatePassword();
      const created = await seedInitialAccounts(
        store.db,
        new PasswordHasher(config.passwordHashing),
        seedPassword,
      );
      // An unreachable REDIS_URL is refused in one line, its password masked.
      const app = await buildApp(config, { store, logStream: output.stream }).catch(
        (error: unknown) => {
          throw error instanceof RedisConnectError ? new StartRefusal(error.message) : error;
        },
      );
      return {
        app,
        close: () => store.close(),
        announce({ url }) {
          // Written to the terminal directly, never through the logger: log files keep no
          // passwords.
          const lines = [
            `Network inventory API listening on ${url} (${store.description})`,
            `API documentation: ${url}${DOCS_PREFIX}/ (OpenAPI document: ${url}${OPENAPI_PATH})`,
            `Web interface: ${url}/ui/`,
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
        },
      };
    } catch (error) {
      await store.close();
      throw error;
    }
  },
};
