import { type Kysely, sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { writeAuditEntries } from '../audit/audit-log.js';
import type { PasswordHasher } from '../auth/passwords.js';
import type { Database } from '../db/schema.js';
import { matchesSchema } from '../http/validation.js';
import { users } from './definition.js';

/**
 * The operator's way back when no admin can sign in (`npm run inventory -- create-admin <name>`,
 * as NetBox's `manage.py createsuperuser`): works on the store directly, without the API.
 * An account of that name (in any letter case) becomes an active admin with the new password;
 * otherwise one is created. Either way its earlier tokens and sessions end (the password changed)
 * and an audit row says the command line did it.
 */
export interface AdminRecovery {
  outcome: 'created' | 'restored';
  /** The account's name as stored: the one to sign in with (the name given may differ in case). */
  username: string;
}

/** Who the audit trail names for a change made by the command. */
export const COMMAND_LINE_ACTOR = '(command line: create-admin)';

export function invalidAdminName(username: string): string | undefined {
  const schema = users.columns.username?.schema;
  if (schema && !matchesSchema(schema, username)) {
    return `"${username.slice(0, 64).replace(/[^\x20-\x7e]/g, '?')}" is not a valid username: 3 to 64 letters, digits, dots, dashes or underscores`;
  }
  return undefined;
}

export async function createOrRestoreAdmin(
  db: Kysely<Database>,
  hasher: PasswordHasher,
  username: string,
  password: string,
): Promise<AdminRecovery> {
  const problem = invalidAdminName(username);
  if (problem) throw new Error(problem);
  const passwordHash = await hasher.hash(password);
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('users')
      .select(['id', 'username'])
      .where(sql`lower(username)`, '=', username.toLowerCase())
      .forUpdate()
      .executeTakeFirst();
    const actor = {
      userId: null,
      username: COMMAND_LINE_ACTOR,
      requestId: `cli-${uuidv7()}`,
      clientIp: 'local',
    };
    if (existing) {
      await trx
        .updateTable('users')
        .set({
          role: 'admin',
          inactive_status: false,
          password_hash: passwordHash,
          password_changed_at: sql`clock_timestamp()`,
          updated_at: sql`clock_timestamp()`,
        })
        .where('id', '=', existing.id)
        .execute();
      await writeAuditEntries(trx, actor, [
        {
          action: 'update',
          resourceType: 'users',
          resourceId: existing.id,
          changes: { role: 'admin', inactive_status: false, password: '***' },
        },
      ]);
      return { outcome: 'restored', username: existing.username };
    }
    const id = uuidv7();
    await trx
      .insertInto('users')
      .values({
        id,
        username,
        // Unique like any address; the admin sets a real one through the API.
        email: `${username.toLowerCase()}@inventory.invalid`,
        role: 'admin',
        password_hash: passwordHash,
      })
      .execute();
    await writeAuditEntries(trx, actor, [
      {
        action: 'create',
        resourceType: 'users',
        resourceId: id,
        changes: { username, role: 'admin', password: '***' },
      },
    ]);
    return { outcome: 'created', username };
  });
}
