import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFromTemplate } from '../src/embedded.js';
import {
  migrate,
  openStore,
  prepareMigratedTemplate,
  type Store,
  type StoreConfig,
} from '../src/index.js';
import { testDatabaseUrl } from '../src/testing.js';

/**
 * A first start on a new embedded folder copies a template that already holds the migrated
 * schema, so the migrator has nothing left to do; a template made before newer migrations still
 * serves, and the migrator applies only those.
 */

// Made when the tests run: skipped ones (on PostgreSQL) run no afterAll that would remove it.
let scratch = '';
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'store-migrated-template-'));
});
const madeTemplates: string[] = [];

/** A migrations folder of its own: content no other run shares, so its templates are its own. */
function migrationsFolder(files: Record<string, string>): string {
  const folder = mkdtempSync(join(scratch, 'migrations-'));
  const mark = randomBytes(8).toString('hex');
  for (const [name, body] of Object.entries(files)) {
    writeFileSync(join(folder, name), `-- ${mark}\n${body}`);
  }
  return folder;
}

/** A migrations folder creating one table, and the template made from it. */
async function oneTableTemplate(): Promise<{ migrations: string; template: string }> {
  const migrations = migrationsFolder({
    '001_part_one.sql': 'CREATE TABLE part_one (id integer PRIMARY KEY);',
  });
  const template = (await prepareMigratedTemplate(migrations)) as string;
  madeTemplates.push(template);
  return { migrations, template };
}

/** `work` on the store opened with `config`, closed afterwards whatever happens. */
async function withStore<T>(
  config: StoreConfig,
  work: (store: Store<unknown>) => Promise<T>,
): Promise<T> {
  const store = await openStore<unknown>(config);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

function firstStart(migrations: string): Promise<{ applied: string[]; tables: string[] }> {
  const dataDir = mkdtempSync(join(scratch, 'data-'));
  return withStore({ dataDir, durable: false, migrations }, async (store) => {
    const { applied } = await migrate(store, migrations);
    const tables = await sql<{ name: string }>`
      SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_name LIKE 'part_%' ORDER BY table_name
    `.execute(store.db);
    return { applied, tables: tables.rows.map((row) => row.name) };
  });
}

afterAll(() => {
  for (const template of madeTemplates) rmSync(template, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(testDatabaseUrl() !== undefined)('embedded store: migrated template', () => {
  it('applies no migration on a first start when the template holds them all, and the newer ones when it does not', async () => {
    const migrations = migrationsFolder({
      '001_part_one.sql': 'CREATE TABLE part_one (id integer PRIMARY KEY);',
      '002_part_two.sql': 'CREATE TABLE part_two (id integer PRIMARY KEY);',
    });
    const template = await prepareMigratedTemplate(migrations);
    expect(template).toBeDefined();
    madeTemplates.push(template as string);

    expect(await firstStart(migrations)).toEqual({
      applied: [],
      tables: ['part_one', 'part_two'],
    });

    // A migration the template has not seen: the template still serves the first two.
    writeFileSync(
      join(migrations, '003_part_three.sql'),
      'CREATE TABLE part_three (id integer PRIMARY KEY);',
    );
    expect(await firstStart(migrations)).toEqual({
      applied: ['003_part_three.sql'],
      tables: ['part_one', 'part_three', 'part_two'],
    });
  }, 120_000);

  it('makes a new folder holding the one database the store uses, which opens again and vacuums', async () => {
    const { migrations } = await oneTableTemplate();
    const config = { dataDir: mkdtempSync(join(scratch, 'data-')), durable: false, migrations };
    await withStore(config, async (store) => {
      const databases = await sql<{ name: string }>`
        SELECT datname AS name FROM pg_database ORDER BY datname`.execute(store.db);
      expect(databases.rows.map((row) => row.name)).toEqual(['postgres']);
    });
    // No copy of the template databases' catalogs: one folder under base/.
    expect(readdirSync(join(config.dataDir, 'base'))).toHaveLength(1);
    await withStore(config, async (store) => {
      await sql`INSERT INTO part_one (id) VALUES (1)`.execute(store.db);
      // VACUUM reads every database's oldest transaction id from pg_database.
      await sql`VACUUM (FREEZE, ANALYZE)`.execute(store.db);
      const rows = await sql<{ id: number }>`SELECT id FROM part_one`.execute(store.db);
      expect(rows.rows).toEqual([{ id: 1 }]);
    });
  }, 120_000);

  it('copies every file of the template into a new folder, keeps what it held, and redoes a copy cut short', async () => {
    const { migrations, template } = await oneTableTemplate();
    const filesOf = (root: string) =>
      (readdirSync(root, { recursive: true }) as string[])
        .filter((path) => statSync(join(root, path)).isFile())
        .map((path) => `${path} ${statSync(join(root, path)).size}`)
        .sort();
    const dataDir = mkdtempSync(join(scratch, 'data-'));
    writeFileSync(join(dataDir, 'jwt-secret'), 'kept');
    createFromTemplate(dataDir, true, template);
    expect(filesOf(dataDir)).toEqual([...filesOf(template), 'jwt-secret 4'].sort());
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8')).toBe('kept');

    // A copy cut short has no PG_VERSION (copied last): the next start copies again and opens.
    rmSync(join(dataDir, 'PG_VERSION'));
    rmSync(join(dataDir, 'global'), { recursive: true });
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(false);
    let creations = 0;
    const reopened = { dataDir, durable: true, migrations, onCreate: () => creations++ };
    await withStore(reopened, async (store) => {
      expect(creations).toBe(1);
      expect((await migrate(store, migrations)).applied).toEqual([]);
    });
  }, 120_000);

  it('applies every migration when an earlier one changed since the template was made', async () => {
    const { migrations } = await oneTableTemplate();
    writeFileSync(
      join(migrations, '001_part_one.sql'),
      'CREATE TABLE part_one (id integer PRIMARY KEY, name text);',
    );
    expect(await firstStart(migrations)).toEqual({
      applied: ['001_part_one.sql'],
      tables: ['part_one'],
    });
  }, 120_000);
});
