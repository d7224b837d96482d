import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate, openStore, type Store } from '@netops/store';
import { createThrowawayDatabase } from '@netops/store/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../src/db/schema.js';
import { startMain } from './spawn-main.js';

const databaseServer = process.env.TEST_DATABASE_URL;

/**
 * A database to start main.ts on, on the store the run tests (the embedded one unless
 * TEST_DATABASE_URL is set): its DATABASE_URL or DATA_DIR, made ready by `prepare`.
 */
async function withDatabase(
  dir: string,
  prepare: (store: Store<unknown>) => Promise<void>,
  body: (env: Record<string, string>) => Promise<void>,
): Promise<void> {
  const database = databaseServer ? await createThrowawayDatabase(databaseServer) : undefined;
  const env: Record<string, string> = database
    ? { DATABASE_URL: database.url, JWT_SECRET: randomBytes(32).toString('base64url') }
    : { DATA_DIR: join(dir, 'prepared') };
  try {
    const store = await openStore<unknown>({
      databaseUrl: database?.url,
      dataDir: env.DATA_DIR ?? '',
    });
    try {
      await prepare(store);
    } finally {
      await store.close();
    }
    await body(env);
  } finally {
    await database?.drop();
  }
}

describe(`upgrades and downgrades (${databaseServer ? 'PostgreSQL' : 'embedded'})`, () => {
  it('refuses to start, in one line and exit code 1, on a database a newer release migrated', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inventory-upgrades-'));
    try {
      await withDatabase(
        dir,
        async (store) => {
          await migrate(store, MIGRATIONS_FOLDER);
          await sql`INSERT INTO schema_migrations (version, name) VALUES (999, '999_from_a_later_release.sql')`.execute(
            store.db,
          );
        },
        async (env) => {
          const started = startMain(env);
          try {
            const code = await Promise.race([
              started.exited,
              started.listening().then(() => 'listening'),
            ]);
            expect(code).toBe(1);
            expect(started.stderr()).toMatch(
              /^The database was migrated by a newer release \(its newest migration: 999_from_a_later_release; the newest this release knows: 0\d\d_[a-z_]+\): this release does not start on it\. [^\n]+\n$/,
            );
            expect(started.stdout()).not.toContain('listening');
          } finally {
            started.cleanup();
          }
        },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('says at start that it upgrades the database, how many migrations and how long they took; nothing on a plain restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inventory-upgrades-'));
    const older = join(dir, 'migrations-to-033');
    mkdirSync(older);
    const source = fileURLToPath(MIGRATIONS_FOLDER);
    const names = readdirSync(source).filter((name) => /^\d+_/.test(name));
    for (const name of names.filter((name) => Number(name.slice(0, 3)) <= 33)) {
      copyFileSync(join(source, name), join(older, name));
    }
    const newest = names.sort().at(-1)?.slice(0, 3);
    try {
      await withDatabase(
        dir,
        async (store) => {
          await migrate(store, older);
        },
        async (env) => {
          const lines = async () => {
            const started = startMain(env);
            try {
              await started.listening();
              return started
                .stdout()
                .split('\n')
                .filter((line) => !line.startsWith('{'));
            } finally {
              await started.stop();
              started.cleanup();
            }
          };
          const upgrade = await lines();
          const at = upgrade.findIndex((line) => line.startsWith('Upgrading the database'));
          expect(upgrade[at]).toBe(
            `Upgrading the database: ${Number(newest) - 33} migrations (034 … ${newest})…`,
          );
          expect(upgrade[at + 1]).toMatch(
            /^Database upgraded: \d+ migrations applied in \d+\.\d s$/,
          );
          expect(upgrade.slice(at + 2).some((line) => line.includes('listening on'))).toBe(true);
          const restart = await lines();
          expect(
            restart.filter((line) => /^(Upgrading the database|Database upgraded)/.test(line)),
          ).toEqual([]);
        },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
