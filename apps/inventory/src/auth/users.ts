import type { Kysely } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../db/schema.js';
import type { PasswordHasher } from './passwords.js';
import { ROLES } from './roles.js';

/** What a request needs to know about its user: one primary-key lookup per request. */
export async function findUserForRequest(db: Kysely<Database>, id: string) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'role', 'inactive_status', 'password_changed_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findUserForLogin(db: Kysely<Database>, username: string) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'role', 'inactive_status', 'password_hash', 'password_changed_at'])
    .where('username', '=', username)
    .executeTakeFirst();
}

/**
 * Creates `admin`, `editor` and `viewer` (each with the role of its name) when there are no users
 * at all. Returns the names created: empty when accounts already existed, so the caller prints
 * the password only on the start that made them. ON CONFLICT keeps two instances starting
 * together from failing on each other.
 */
export async function seedInitialAccounts(
  db: Kysely<Database>,
  hasher: PasswordHasher,
  password: string,
): Promise<string[]> {
  const existing = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (existing) return [];
  // One hash at a time: each holds its Argon2 memory cost (19 MiB by default) while it runs, and
  // three side by side raised the first start's peak resident set by that much twice over.
  const accounts = [];
  for (const role of ROLES) {
    accounts.push({
      id: uuidv7(),
      username: role,
      email: `${role}@inventory.invalid`,
      role,
      password_hash: await hasher.hash(password),
    });
  }
  const created = await db
    .insertInto('users')
    .values(accounts)
    .onConflict((conflict) => conflict.doNothing())
    .returning('username')
    .execute();
  return created.map((row) => row.username);
}
