import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { PasswordHashingConfig } from '../config.js';

/**
 * One dummy hash per cost for the whole process. Every hasher with the same cost verifies against
 * the same one, so a service that builds several (the start's seeding, the app) computes it once:
 * each hash holds the memory cost (19 MiB by default) on a thread of the pool while it runs.
 */
const dummyHashes = new Map<string, Promise<string>>();

/** argon2id of `password` at `cost`: the one place the configured costs reach the library. */
const hashAt = (cost: PasswordHashingConfig, password: string): Promise<string> =>
  hash(password, { memoryCost: cost.memoryCost, timeCost: cost.timeCost });

export function dummyHashFor(cost: PasswordHashingConfig): Promise<string> {
  const key = `${cost.memoryCost}:${cost.timeCost}`;
  let dummy = dummyHashes.get(key);
  if (!dummy) {
    dummy = hashAt(cost, randomBytes(16).toString('hex'));
    // Rejections surface on first use; this only avoids an unhandled-rejection warning.
    dummy.catch(() => {});
    dummyHashes.set(key, dummy);
  }
  return dummy;
}

/**
 * argon2id password hashing (the library's default algorithm; a test pins the `$argon2id$`
 * prefix). Costs come from configuration so tests can run cheap while production runs OWASP's
 * recommendation.
 */
export class PasswordHasher {
  /** Verified against when the user does not exist, so both paths cost one argon2 verify. */
  readonly #dummyHash: Promise<string>;

  constructor(private readonly cost: PasswordHashingConfig) {
    this.#dummyHash = dummyHashFor(cost);
  }

  hash(password: string): Promise<string> {
    return hashAt(this.cost, password);
  }

  /** `storedHash` undefined means "no such user": still does the work, always false. */
  async verify(storedHash: string | undefined, password: string): Promise<boolean> {
    if (storedHash === undefined) {
      await verify(await this.#dummyHash, password).catch(() => false);
      return false;
    }
    return verify(storedHash, password).catch(() => false);
  }
}

/** A random password for the initial accounts: 18 bytes, URL-safe. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
