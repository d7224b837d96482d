import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A channel id: 128 random bits, base64url (22 characters), never starting with a dash. base64url
 * starts 1 id in 64 with one, and the CLI reads `--channel -x…` as a missing value followed by
 * an option, so such an id could not be given the way the README shows; drawn again instead
 * (the ids still hold over 127 random bits).
 */
export function newChannelId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/** What a listen token looks like (newListenToken). */
export const LISTEN_TOKEN = /^whr_[A-Za-z0-9_-]{43}$/;

/** A listen token: 256 random bits with a recognisable prefix (secret scanners find `whr_`). */
export function newListenToken(): string {
  return `whr_${randomBytes(32).toString('base64url')}`;
}

/**
 * What the relay stores instead of a token. The tokens are 256 random bits, so a fast hash is
 * enough (a slow password hash protects guessable secrets, which these are not).
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

/** Constant-time check of a presented token against a stored hash. */
export function tokenMatches(presented: string, storedHash: string): boolean {
  const presentedHash = Buffer.from(hashToken(presented));
  const stored = Buffer.from(storedHash);
  return presentedHash.length === stored.length && timingSafeEqual(presentedHash, stored);
}

/** The token of `Authorization: Bearer <token>`, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ \t]+([\x21-\x7e]{1,512})[ \t]*$/i.exec(header);
  return match?.[1] ?? null;
}
