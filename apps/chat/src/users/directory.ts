import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { UserRepository, type UserRow } from '../db/users.js';
import type { NormalisedIdentity } from '../providers/types.js';
import { baseUsername } from './username.js';

/**
 * The users as the routes see them: the repository, with the username of a new user chosen under
 * the service's naming rules first (path-like handles refused, reserved names skipped; see
 * username.ts). The repository then sees the chosen name as the handle, and adds a number on a
 * clash as before (`user2`); a returning user keeps the username they have.
 */
export class UserDirectory extends UserRepository {
  readonly #reserved: ReadonlySet<string>;

  constructor(db: Kysely<Database>, reservedUsernames: readonly string[]) {
    super(db);
    this.#reserved = new Set(reservedUsernames.map((name) => name.toLowerCase()));
  }

  override linkOrCreate(identity: NormalisedIdentity, now: Date): Promise<UserRow> {
    return super.linkOrCreate(
      { ...identity, username: baseUsername(identity, this.#reserved) },
      now,
    );
  }
}
