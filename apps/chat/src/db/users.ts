import { randomInt } from 'node:crypto';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { NormalisedIdentity } from '../providers/types.js';
import { baseUsername, randomSuffix, USERNAME_MAX, withSuffix } from '../users/username.js';
import type { Database, UsersTable } from './schema.js';

export type UserRow = Selectable<UsersTable>;

const ID_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTWXYZabcdefghijkmnopqrstuvwxyz';
/** Rocket.Chat's user id shape: 17 characters from an alphabet without look-alikes (~98 bits). */
export function newUserId(): string {
  let id = '';
  for (let i = 0; i < 17; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return id;
}

/** A unique violation of `constraint`, from pg or PGlite (both carry SQLSTATE and the name). */
function violates(error: unknown, constraint: string): boolean {
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown };
  return (
    e?.code === '23505' &&
    (e.constraint === constraint || String(e.message ?? '').includes(`"${constraint}"`))
  );
}

/**
 * Whether the upsert's refresh below would leave the row as it is: each field the provider no
 * longer reports is kept, the others take the provider's value.
 */
function refreshedProfileIsUnchanged(user: UserRow, identity: NormalisedIdentity): boolean {
  const email = identity.email ?? null;
  return (
    (identity.name ?? user.name) === user.name &&
    (email ?? user.email) === user.email &&
    (email === null ? user.email_verified : identity.emailVerified) === user.email_verified &&
    (identity.avatarUrl ?? user.avatar_url) === user.avatar_url &&
    (identity.utcOffsetHours ?? user.utc_offset) === user.utc_offset
  );
}

/** How many usernames are tried before giving up on a clash (each a single statement). */
const MAX_USERNAME_ATTEMPTS = 12;

export class UserRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Finds the user linked to the provider account or creates one, in one statement:
   * INSERT .. ON CONFLICT (service, provider_user_id) DO UPDATE. Concurrent first logins of one
   * account therefore make exactly one user (the others update it), and a returning user keeps
   * id and username while name, e-mail, avatar and UTC offset are refreshed from the provider.
   * A username clash with another account is the only retry: the next candidate gets a suffix.
   */
  async linkOrCreate(identity: NormalisedIdentity, now: Date): Promise<UserRow> {
    // Most logins are of a returning user whose profile the provider reports unchanged: read,
    // and write nothing. A write would cost a commit flushed to disk, and its change
    // notification (migration 004) would serialise with every other notifying commit and empty
    // the session caches of the user's other sessions, for nothing.
    const known = await this.db
      .selectFrom('users')
      .selectAll()
      .where('service', '=', identity.provider)
      .where('provider_user_id', '=', identity.id)
      .executeTakeFirst();
    if (known && refreshedProfileIsUnchanged(known, identity)) return known;
    const base = baseUsername(identity);
    for (let attempt = 0; attempt < MAX_USERNAME_ATTEMPTS; attempt++) {
      const username = await this.#candidate(base, attempt);
      try {
        return await this.db
          .insertInto('users')
          .values({
            id: newUserId(),
            service: identity.provider,
            provider_user_id: identity.id,
            username,
            name: identity.name ?? username,
            email: identity.email ?? null,
            email_verified: identity.emailVerified,
            avatar_url: identity.avatarUrl ?? null,
            utc_offset: identity.utcOffsetHours ?? 0,
            roles: JSON.stringify(['user']),
            preferences: JSON.stringify({}),
            // One clock for both: the database's default for created_at could be ahead of the
            // service's, and a new user's _updatedAt would then precede its createdAt.
            created_at: now,
            updated_at: now,
          })
          .onConflict((conflict) =>
            conflict.constraint('users_identity_key').doUpdateSet({
              // What the provider no longer says is kept rather than erased.
              name: sql`coalesce(${identity.name ?? null}::text, users.name)`,
              email: sql`coalesce(${identity.email ?? null}::text, users.email)`,
              email_verified: sql`case when ${identity.email ?? null}::text is null then users.email_verified else ${identity.emailVerified} end`,
              avatar_url: sql`coalesce(${identity.avatarUrl ?? null}::text, users.avatar_url)`,
              utc_offset: sql`coalesce(${identity.utcOffsetHours ?? null}::double precision, users.utc_offset)`,
              updated_at: sql`greatest(${now}::timestamptz, users.created_at)`,
            }),
          )
          .returningAll()
          .executeTakeFirstOrThrow();
      } catch (error) {
        if (violates(error, 'users_username_key')) continue;
        throw error;
      }
    }
    throw new Error(`No free username found for "${base}" after ${MAX_USERNAME_ATTEMPTS} attempts`);
  }

  /** The base first, then the next free number after the base (alice2, alice3...), then random. */
  async #candidate(base: string, attempt: number): Promise<string> {
    if (attempt === 0) return base;
    if (attempt === 1) {
      const stem = base.slice(0, USERNAME_MAX - 4);
      const taken = await this.db
        .selectFrom('users')
        .select('username')
        .where('username', '~', `^${stem.replace(/[.\\-]/g, '\\$&')}[0-9]{1,4}$`)
        .execute();
      const numbers = new Set(taken.map((row) => Number(row.username.slice(stem.length))));
      let next = 2;
      while (numbers.has(next)) next++;
      return withSuffix(stem, next);
    }
    return withSuffix(base, randomSuffix(attempt));
  }

  /** Whether `id` names a user (deactivated ones included): one primary-key lookup. */
  async exists(id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  findByUsername(username: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', username)
      .executeTakeFirst();
  }
}
