import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, MIN_JWT_SECRET_LENGTH } from '../config.js';

export const JWT_SECRET_FILE = 'jwt-secret';

/**
 * The signing secret: JWT_SECRET when set (config.ts already refused a PostgreSQL store without
 * one). Otherwise, on the embedded store, one generated on first start and kept in DATA_DIR
 * (mode 0600) so tokens survive restarts; on the in-memory store a fresh one per process, which
 * dies with the data it protects.
 */
export function resolveJwtSecret(config: Config): string {
  if (config.jwtSecret !== undefined) return config.jwtSecret;
  if (config.databaseUrl !== undefined && config.databaseUrl !== 'memory://') {
    throw new Error('JWT_SECRET is required when DATABASE_URL points to PostgreSQL');
  }
  if (config.databaseUrl === 'memory://') return randomBytes(48).toString('base64url');

  mkdirSync(config.dataDir, { recursive: true });
  const file = join(config.dataDir, JWT_SECRET_FILE);
  try {
    // `wx`: only the first start creates it; a concurrent or later start reads it instead.
    writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  chmodSync(file, 0o600);
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < MIN_JWT_SECRET_LENGTH) {
    throw new Error(
      `${file} holds a JWT secret shorter than ${MIN_JWT_SECRET_LENGTH} characters; delete it to have a new one generated`,
    );
  }
  return secret;
}
