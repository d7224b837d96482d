import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate, type Store } from '@netops/store';
import { openTestStore } from '@netops/store/testing';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, MIGRATIONS_FOLDER } from '../../src/db/schema.js';

/**
 * Migration 009 makes usernames and e-mail addresses unique regardless of
 * letter case. A database whose accounts already clash must stop the start-up with a message
 * naming them, and be left as it was.
 */
const all = readdirSync(fileURLToPath(MIGRATIONS_FOLDER)).filter((name) => name.endsWith('.sql'));
const folder = mkdtempSync(join(tmpdir(), 'inventory-migrations-'));
const copy = (names: string[]) => {
  for (const name of names)
    copyFileSync(join(fileURLToPath(MIGRATIONS_FOLDER), name), join(folder, name));
};
copy(all.filter((name) => Number.parseInt(name, 10) < 9));

let store: Store<Database> | undefined;
afterAll(async () => {
  await store?.close();
  rmSync(folder, { recursive: true, force: true });
});

const account = (id: string, username: string, email: string) =>
  sql`INSERT INTO users (id, username, email, role, password_hash)
      VALUES (${id}::uuid, ${username}, ${email}, 'viewer', 'x')`;

describe('migration 009 on accounts that differ only in letter case', () => {
  it('stops with a message naming them, changes nothing, and passes once they are renamed', async () => {
    store = await openTestStore<Database>({ migrations: folder });
    const db = store.db;
    await account('00000000-0000-4000-8000-000000000001', 'Bob', 'bob@example.com').execute(db);
    await account('00000000-0000-4000-8000-000000000002', 'bob', 'BOB@example.com').execute(db);
    await account('00000000-0000-4000-8000-000000000003', 'carol', 'carol@example.com').execute(db);
    copy(all.filter((name) => Number.parseInt(name, 10) >= 9));

    const failed = migrate(store as unknown as Store<unknown>, folder);
    await expect(failed).rejects.toThrow(
      'Cannot make usernames and e-mail addresses unique regardless of letter case (migration 009): accounts share e-mail addresses BOB@example.com and bob@example.com; usernames Bob and bob. Rename or delete one of each pair',
    );
    const applied = await sql<{
      version: number;
    }>`SELECT version FROM schema_migrations WHERE version >= 9`.execute(db);
    expect(applied.rows).toEqual([]);

    await sql`UPDATE users SET username = 'bobby', email = 'bobby@example.com' WHERE username = 'bob'`.execute(
      db,
    );
    const result = await migrate(store as unknown as Store<unknown>, folder);
    expect(result.applied.map((name) => Number.parseInt(name, 10))).toEqual(
      all.filter((name) => Number.parseInt(name, 10) >= 9).map((name) => Number.parseInt(name, 10)),
    );
    await expect(
      account('00000000-0000-4000-8000-000000000004', 'CAROL', 'c@example.com').execute(db),
    ).rejects.toThrow(/users_username_lower_key/);
  });
});
