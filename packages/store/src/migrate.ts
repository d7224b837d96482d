import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from './index.js';
import { StoreOpenError } from './store.js';

export interface MigrationResult {
  /** Names of the migrations applied by this call, in order. */
  applied: string[];
}

const MIGRATION_FILE = /^(\d+)_[\w-]+\.sql$/;
/** Any constant works: it only has to be the same for every instance migrating one database. */
const MIGRATION_LOCK_KEY = 4_711_000;

interface MigrationFile {
  version: number;
  name: string;
  path: string;
}

function listMigrations(folder: string): MigrationFile[] {
  const files = readdirSync(folder)
    .map((name) => ({ name, match: MIGRATION_FILE.exec(name) }))
    .filter((entry): entry is { name: string; match: RegExpExecArray } => entry.match !== null)
    .map(({ name, match }) => ({ version: Number(match[1]), name, path: join(folder, name) }))
    .sort((a, b) => a.version - b.version);
  for (let i = 1; i < files.length; i++) {
    if (files[i]?.version === files[i - 1]?.version) {
      throw new Error(`Two migrations share version ${files[i]?.version} in ${folder}`);
    }
  }
  return files;
}

/**
 * For each migration of `folder`, in order, a key naming the schema that it and every earlier
 * migration make: a hash chained over their names and contents. A template made by applying the
 * first n migrations is filed under the n-th key; a folder whose first n files are unchanged
 * finds it again, and any edit or insertion among them gives new keys.
 */
export function migrationKeys(folder: string | URL): Array<{ name: string; key: string }> {
  const path = folder instanceof URL ? fileURLToPath(folder) : folder;
  let chain = '';
  return listMigrations(path).map((migration) => {
    chain = createHash('sha256')
      .update(chain)
      .update(`\0${migration.name}\0`)
      .update(readFileSync(migration.path))
      .digest('hex');
    return { name: migration.name, key: chain };
  });
}

/**
 * The database holds migrations newer than every one this release has: a newer release migrated
 * it. This release refuses to start on it, since what it writes could break the rules the newer
 * schema relies on (a downgrade, or an older instance still running beside a newer one). Its
 * message is one line, and so is its stack: a service prints either as it is.
 */
export class NewerSchemaError extends StoreOpenError {
  override readonly name: string = 'NewerSchemaError';
  constructor(message: string) {
    super(message);
    this.stack = message;
  }
}

function newerSchemaMessage(
  known: MigrationFile | undefined,
  newest: { version: number; name: string },
): string {
  const ours = known ? `${known.name.replace(/\.sql$/, '')}` : 'none';
  return `The database was migrated by a newer release (its newest migration: ${newest.name.replace(/\.sql$/, '')}; the newest this release knows: ${ours}): this release does not start on it. Start the newer release (or a later one) instead; a downgrade needs the database restored from a backup taken before the upgrade.`;
}

/**
 * Applies the numbered `NNN_name.sql` files of `folder` that the database has not seen, each
 * recorded in `schema_migrations`. Everything runs in one transaction under an advisory lock, so
 * instances starting together against one PostgreSQL apply each migration exactly once, and a
 * failing migration leaves the schema as it was. A database holding a migration newer than the
 * newest of `folder` is refused with a NewerSchemaError, before anything is applied.
 */
export async function migrate(
  store: Pick<Store<unknown>, 'scriptTransaction'>,
  folder: string | URL,
  options: {
    /**
     * Told, in a line each, that an upgrade starts (how many migrations, first and last) and
     * how long it took: the start-up waits for it (seconds at tens of thousands of rows), and
     * nothing else is printed meanwhile. Silent on a new database and on a plain restart.
     */
    announce?: (line: string) => void;
  } = {},
): Promise<MigrationResult> {
  const path = folder instanceof URL ? fileURLToPath(folder) : folder;
  const migrations = listMigrations(path);
  let announced: ((line: string) => void) | undefined;
  let started = 0;
  const result = await store.scriptTransaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const recorded = await tx.query<{ version: number; name: string }>(
      'SELECT version, name FROM schema_migrations ORDER BY version',
    );
    const known = migrations.at(-1);
    const newest = recorded.at(-1);
    if (newest !== undefined && newest.version > (known?.version ?? 0)) {
      throw new NewerSchemaError(newerSchemaMessage(known, newest));
    }
    const done = new Set(recorded.map((row) => row.version));
    const pending = migrations.filter((migration) => !done.has(migration.version));
    announced = pending.length > 0 && done.size > 0 ? options.announce : undefined;
    started = performance.now();
    announced?.(upgradeLine(pending.map((migration) => migration.name)));
    const applied: string[] = [];
    for (const migration of pending) {
      await tx.exec(readFileSync(migration.path, 'utf8'));
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.name);
    }
    return { applied };
  });
  // Once committed: the upgrade is done only then.
  announced?.(
    `Database upgraded: ${migrationCount(result.applied.length)} applied in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return result;
}

const migrationCount = (count: number) => `${count} migration${count === 1 ? '' : 's'}`;

/** `Upgrading the database: 2 migrations (034 … 035)…`, by the migrations' version numbers. */
function upgradeLine(pending: readonly string[]): string {
  const first = pending[0]?.slice(0, 3);
  const last = pending.at(-1)?.slice(0, 3);
  return `Upgrading the database: ${migrationCount(pending.length)} (${first === last ? first : `${first} … ${last}`})…`;
}
