import { ConfigError, describeConfigError } from '@netops/service-runtime';
import { migrate, openStore, type Store, StoreOpenError } from '@netops/store';
import { generatePassword, PasswordHasher } from '../auth/passwords.js';
import { loadConfig } from '../config.js';
import { type Database, MIGRATIONS_FOLDER } from '../db/schema.js';
import { createOrRestoreAdmin, invalidAdminName } from './admin-recovery.js';

export const CREATE_ADMIN_USAGE = `Usage: npm run inventory -- create-admin <username>

Creates an admin account <username> in the configured store (DATABASE_URL, or the embedded
store in DATA_DIR), or, if an account of that name exists (in any letter case), makes it an
active admin again; the line printed names it as stored, the name to sign in with.
Either way it gets a new generated password, printed once; its earlier tokens end.
On the embedded store, stop the service first: one process at a time opens it.
`;

interface Output {
  out(text: string): void;
  err(text: string): void;
}

/**
 * `create-admin <username>`: the way back when no admin can sign in. Configured by the same
 * environment as the service; returns the exit code (0 done, 1 failed, 2 bad usage).
 */
export async function runCreateAdmin(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  output: Output,
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    output.out(CREATE_ADMIN_USAGE);
    return 0;
  }
  const [username, ...rest] = args;
  if (username === undefined || rest.length > 0) {
    output.err(CREATE_ADMIN_USAGE);
    return 2;
  }
  const problem = invalidAdminName(username);
  if (problem) {
    output.err(`${problem}\n`);
    return 2;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env, { logLevel: 'warn' });
  } catch (error) {
    // In the service's own shape: every problem, one a line.
    output.err(`${error instanceof ConfigError ? describeConfigError(error) : String(error)}\n`);
    return 1;
  }
  let store: Store<Database> | undefined;
  try {
    store = await openStore<Database>({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      durable: true,
      // A command of a few seconds leaves the tables' upkeep to the service.
      autovacuum: { intervalMs: 0 },
      connectTimeoutMs: config.databaseTimeouts.connectMs,
      queryTimeoutMs: config.databaseTimeouts.queryMs,
    });
    // An upgrade a command applies is said as the service says it, on standard error: standard
    // output is the account and its password, which a script may read.
    await migrate(store as unknown as Store<unknown>, MIGRATIONS_FOLDER, {
      announce: (line) => output.err(`${line}\n`),
    });
    const password = generatePassword();
    const { outcome, username: stored } = await createOrRestoreAdmin(
      store.db,
      new PasswordHasher(config.passwordHashing),
      username,
      password,
    );
    // Written to the terminal only, never logged.
    output.out(
      [
        outcome === 'created'
          ? `Admin account "${username}" created (${store.description}).`
          : `Account "${stored}"${stored === username ? '' : ` (matched by "${username}": names match in any letter case, but sign in as "${stored}")`} is an active admin again; its earlier tokens no longer work (${store.description}).`,
        `Its password (shown once, change it after signing in): ${password}`,
        '',
      ].join('\n'),
    );
    return 0;
  } catch (error) {
    // The embedded store held by the running service (one process at a time opens it; the lock
    // goes with the process, so a crash leaves nothing to clear) is refused in its own words.
    if (error instanceof StoreOpenError) {
      output.err(`${error.message}\n`);
      return 1;
    }
    output.err(`create-admin failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await store?.close();
  }
}
