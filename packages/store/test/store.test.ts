import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, type Store } from '../src/index.js';
import { openTestStore, testDatabaseUrl } from '../src/testing.js';

interface TestDB {
  widget: {
    id: number;
    name: string;
    weight: number | null;
    big: number | null;
    made_on: string | null;
  };
  gadget: { id: number };
}

const migrations = new URL('./migrations/', import.meta.url);
let store: Store<TestDB>;

beforeAll(async () => {
  store = await openTestStore<TestDB>({ migrations });
});
afterAll(async () => {
  await store?.close();
});

describe(`store (${testDatabaseUrl() ? 'PostgreSQL' : 'embedded'})`, () => {
  it('applies every migration once and records it', async () => {
    const again = await migrate(store as Store<unknown>, migrations);
    expect(again.applied).toEqual([]);
    const versions = await sql<{
      version: number;
    }>`SELECT version FROM schema_migrations ORDER BY version`.execute(store.db);
    expect(versions.rows.map((r) => r.version)).toEqual([1, 2]);
    const gadgets = await store.db.selectFrom('gadget').select('id').orderBy('id').execute();
    expect(gadgets).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('returns bigint, numeric and date columns with the same types on both backends', async () => {
    await store.db
      .insertInto('widget')
      .values({ id: 1, name: 'a', weight: 1.5, big: 42, made_on: '2024-02-29' })
      .execute();
    const row = await store.db
      .selectFrom('widget')
      .selectAll()
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ id: 1, name: 'a', weight: 1.5, big: 42, made_on: '2024-02-29' });
    const count = await store.db
      .selectFrom('widget')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(count.n).toBe(1);
  });

  it('rolls a failed transaction back', async () => {
    await expect(
      store.db.transaction().execute(async (trx) => {
        await trx.insertInto('widget').values({ id: 2, name: 'b' }).execute();
        await trx.insertInto('widget').values({ id: 3, name: 'b' }).execute();
      }),
    ).rejects.toThrow();
    const rows = await store.db
      .selectFrom('widget')
      .select('id')
      .where('id', 'in', [2, 3])
      .execute();
    expect(rows).toEqual([]);
  });

  it('keeps concurrent transactions apart', async () => {
    // Ten transactions each insert then read back their own row; on a single shared connection
    // without a lease they would commit or roll back each other's statements.
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        store.db.transaction().execute(async (trx) => {
          await trx
            .insertInto('widget')
            .values({ id: 100 + i, name: `w${i}` })
            .execute();
          if (i % 2 === 1) throw new Error('roll back the odd ones');
          return trx
            .selectFrom('widget')
            .select('id')
            .where('id', '=', 100 + i)
            .executeTakeFirst();
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const kept = await store.db
      .selectFrom('widget')
      .select('id')
      .where('id', '>=', 100)
      .orderBy('id')
      .execute();
    expect(kept.map((r) => r.id)).toEqual([100, 102, 104, 106, 108]);
  });
});
