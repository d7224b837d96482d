import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Whether the client's appId and appSecret are the configured ones, in time that does not depend
 * on where they differ: both sides are hashed to equal-length digests, and both comparisons always
 * run (no short-circuit), so neither a prefix nor the length of the secret leaks.
 */
export function applicationMatches(
  configured: { appId: string; appSecret: string },
  given: { appId: string; appSecret: string },
): boolean {
  const idMatches = timingSafeEqual(digest(configured.appId), digest(given.appId));
  const secretMatches = timingSafeEqual(digest(configured.appSecret), digest(given.appSecret));
  return idMatches && secretMatches;
}
