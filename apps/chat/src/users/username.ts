import { randomInt } from 'node:crypto';
import type { NormalisedIdentity } from '../providers/types.js';

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
/** What a username may contain; the database checks the same rule. */
export const USERNAME_PATTERN = /^[a-z0-9._-]{3,32}$/;

/**
 * Lowercase ASCII letters, digits, ".", "_" and "-"; accents are dropped ("José" -> "jose").
 * Letter case is not kept (README.md, "Usernames"): `GraceHopper_` becomes `gracehopper_`. An
 * underscore at either end is part of many handles and stays; dots and hyphens there are dropped.
 */
export function normaliseHandle(raw: string): string {
  return raw
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, '.')
    .replace(/[^a-z0-9._-]+/g, '')
    .replace(/^[.-]+|[.-]+$/g, '')
    .slice(0, USERNAME_MAX)
    .replace(/[.-]+$/, '');
}

/**
 * Input that names a path rather than a person: a slash or backslash, `..`, a percent-encoded
 * byte, a control character. Normalising `../../admin` would give `admin` (a squatting
 * attack), so such a candidate is refused before it is normalised.
 */
const PATH_LIKE = /[/\\]|\.\.|%[0-9a-f]{2}|\p{Cc}/iu;

export const isPathLike = (candidate: string) => PATH_LIKE.test(candidate);

/**
 * The username a new user gets before any clash: the provider's handle, else the e-mail's local
 * part, else the display name, each normalised; the first that is not path-like, keeps at least
 * 3 characters and is not in `reserved` (lowercase names, RESERVED_USERNAMES) wins, else `user`.
 */
export function baseUsername(
  identity: NormalisedIdentity,
  reserved: ReadonlySet<string> = new Set(),
): string {
  const candidates = [identity.username, identity.email?.split('@')[0], identity.name];
  for (const candidate of candidates) {
    if (!candidate || isPathLike(candidate)) continue;
    const name = normaliseHandle(candidate);
    if (name.length >= USERNAME_MIN && !reserved.has(name)) return name;
  }
  return 'user';
}

/** `base` with a numeric suffix, shortened so the whole stays within USERNAME_MAX. */
export function withSuffix(base: string, suffix: number): string {
  const digits = String(suffix);
  return `${base.slice(0, USERNAME_MAX - digits.length)}${digits}`;
}

/** A random suffix growing with the attempt, for clashes that a concurrent login keeps winning. */
export const randomSuffix = (attempt: number) =>
  randomInt(10 ** Math.min(attempt + 2, 9), 10 ** Math.min(attempt + 3, 10));
