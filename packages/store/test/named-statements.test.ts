import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store, withGenericPlans } from '../src/index.js';
import { namedStatementsOf } from '../src/pglite-statements.js';

/**
 * The embedded store parses each statement text once per session and afterwards only binds and
 * runs it (pglite-statements.ts). PostgreSQL's own view of the session's prepared statements
 * (`pg_prepared_statements`) tells how often a text was parsed and run.
 */

interface TestDB {
  part: { id: number; name: string; tags: string[]; made: string | null; extra: unknown };
}

let store: Store<TestDB>;

beforeAll(async () => {
  store = await openStore<TestDB>({ dataDir: '', databaseUrl: 'memory://' });
  await sql`CREATE TABLE part (id bigint PRIMARY KEY, name text NOT NULL UNIQUE,
    tags text[] NOT NULL DEFAULT '{}', made timestamptz, extra jsonb)`.execute(store.db);
});
afterAll(async () => {
  await store?.close();
});

async function preparedLike(fragment: string) {
  const result = await sql<{
    name: string;
    calls: number;
  }>`SELECT name, (generic_plans + custom_plans)::int AS calls FROM pg_prepared_statements
     WHERE statement LIKE ${`%${fragment}%`} AND statement NOT LIKE '%pg_prepared_statements%'`.execute(
    store.db,
  );
  return result.rows;
}

describe('named statements (embedded store)', () => {
  it('parses a statement once and runs it with each call’s values', async () => {
    for (let id = 1; id <= 8; id += 1) {
      await store.db
        .insertInto('part')
        .values({
          id,
          name: `part-${id}`,
          tags: [`t${id}`, 'shared'],
          made: id % 2 === 0 ? '2024-05-01T10:00:00.123Z' : null,
          extra: JSON.stringify({ id }),
        })
        .execute();
    }
    const read = (id: number) =>
      store.db.selectFrom('part').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    for (let id = 1; id <= 8; id += 1) {
      const row = await read(id);
      expect(row).toMatchObject({ id, name: `part-${id}`, tags: [`t${id}`, 'shared'] });
      expect(row.extra).toEqual({ id });
      expect(row.made === null).toBe(id % 2 === 1);
    }
    // Without names: no prepared statement at all (every call parsed anew).
    const inserts = await preparedLike('insert into "part"');
    const selects = await preparedLike('from "part" where "id" =');
    expect(inserts).toEqual([{ name: expect.stringMatching(/^netops_/), calls: 8 }]);
    expect(selects).toEqual([{ name: expect.stringMatching(/^netops_/), calls: 8 }]);
  });

  it('answers an error in PostgreSQL’s terms and keeps the statement for the next call', async () => {
    const insert = (id: number, name: string) =>
      store.db.insertInto('part').values({ id, name, tags: [] }).execute();
    await expect(insert(100, 'part-1')).rejects.toMatchObject({
      code: '23505',
      constraint: 'part_name_key',
    });
    await insert(100, 'part-100');
    const [prepared] = await preparedLike('insert into "part" ("id", "name", "tags")');
    expect(prepared?.calls).toBe(2);
    // A text PostgreSQL refuses is not kept, and the session goes on.
    await expect(sql`SELEC 1`.execute(store.db)).rejects.toMatchObject({ code: '42601' });
    expect(await preparedLike('SELEC 1')).toEqual([]);
    const count = await sql<{ n: number }>`SELECT count(*)::int AS n FROM part`.execute(store.db);
    expect(count.rows[0]?.n).toBe(9);
  });

  it('keeps a statement through a rolled-back transaction', async () => {
    await expect(
      store.db.transaction().execute(async (trx) => {
        await trx.updateTable('part').set({ name: 'renamed' }).where('id', '=', 1).execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await store.db.updateTable('part').set({ name: 'renamed' }).where('id', '=', 2).execute();
    const rows = await store.db
      .selectFrom('part')
      .select(['id', 'name'])
      .where('id', '<=', 2)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 1, name: 'part-1' },
      { id: 2, name: 'renamed' },
    ]);
    const [update] = await preparedLike('update "part" set "name"');
    expect(update?.calls).toBe(2);
  });

  it('prepares again a statement whose result changed type', async () => {
    const names = () =>
      sql<{ name: unknown }>`SELECT name FROM part WHERE id = ${1}`.execute(store.db);
    expect((await names()).rows).toEqual([{ name: 'part-1' }]);
    await sql`ALTER TABLE part ALTER COLUMN name TYPE varchar(50)`.execute(store.db);
    await sql`ALTER TABLE part ADD COLUMN code int`.execute(store.db);
    await sql`ALTER TABLE part DROP COLUMN code`.execute(store.db);
    // PostgreSQL may refuse the old plan once (0A000); the next call is prepared anew.
    const answer = await names().catch((error: { code?: string }) => error);
    if (!('rows' in answer)) expect(answer.code).toBe('0A000');
    expect((await names()).rows).toEqual([{ name: 'part-1' }]);
  });

  it('plans a statement once for the instance of statements planned once, and for no other', async () => {
    const generic = withGenericPlans(store.db);
    expect(generic).not.toBe(store.db);
    const mode = (on: typeof store.db) =>
      sql<{ mode: string }>`SELECT current_setting('plan_cache_mode') AS mode`.execute(on);
    expect((await mode(generic)).rows).toEqual([{ mode: 'force_generic_plan' }]);
    expect((await mode(store.db)).rows).toEqual([{ mode: 'auto' }]);
    // One text, both ways: PostgreSQL reads the setting at each call.
    const byName = (on: typeof store.db, name: string) =>
      on.selectFrom('part').select('id').where('name', '=', name).execute();
    for (let call = 1; call <= 3; call += 1) {
      expect(await byName(generic, `part-${call + 2}`)).toEqual([{ id: call + 2 }]);
      expect(await byName(store.db, `part-${call + 2}`)).toEqual([{ id: call + 2 }]);
    }
    const counts = await sql<{ generic: number; custom: number }>`
      SELECT generic_plans::int AS generic, custom_plans::int AS custom
      FROM pg_prepared_statements WHERE statement LIKE '%from "part" where "name" =%'
        AND statement NOT LIKE '%pg_prepared_statements%'`.execute(store.db);
    expect(counts.rows).toEqual([{ generic: 3, custom: 3 }]);
    // A statement that fails under the setting leaves the session as it was.
    await expect(sql`SELECT 1 / ${0}::int`.execute(generic)).rejects.toMatchObject({
      code: '22012',
    });
    expect((await mode(store.db)).rows).toEqual([{ mode: 'auto' }]);
    // Inside a transaction, the transaction's own statements (the instance is not used there).
    await store.db.transaction().execute(async (trx) => {
      expect(withGenericPlans(trx)).toBe(trx);
      expect((await mode(trx)).rows).toEqual([{ mode: 'auto' }]);
    });
  });

  it('keeps at most 200 statements prepared, closing the least recently used', async () => {
    for (let i = 0; i < 230; i += 1) {
      await sql`SELECT ${i}::int AS ${sql.ref(`column_${i}`)}`.execute(store.db);
    }
    const kept = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM pg_prepared_statements`.execute(store.db);
    expect(kept.rows[0]?.n).toBeLessThanOrEqual(200);
    expect(await preparedLike('AS "column_229"')).toHaveLength(1);
    expect(await preparedLike('AS "column_0"')).toEqual([]);
  });
});

describe('named statements: what each call sends PostgreSQL', () => {
  let pglite: PGlite;
  /** The frontend messages of each call into PGlite, by their type letter. */
  const calls: string[][] = [];

  beforeAll(async () => {
    pglite = await PGlite.create();
    await pglite.exec(`CREATE TABLE item (id int PRIMARY KEY, name text, tags text[],
      made timestamptz, extra jsonb);
      INSERT INTO item VALUES (1, 'one', '{a,b}', '2024-05-01T10:00:00.123Z', '{"k":1}'),
        (2, 'two', '{}', NULL, NULL)`);
    const send = pglite.execProtocolStream.bind(pglite);
    pglite.execProtocolStream = (message, options) => {
      const types: string[] = [];
      const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
      for (let at = 0; at < message.byteLength; at += 1 + view.getInt32(at + 1)) {
        types.push(String.fromCharCode(message[at] ?? 0));
      }
      calls.push(types);
      return send(message, options);
    };
  });
  afterAll(async () => {
    await pglite?.close();
  });

  /** The one value a statement without parameters answers. */
  const firstValue = async (text: string) => {
    const [row] = (await namedStatementsOf(pglite).run<Record<string, unknown>>(text, [])).rows;
    return row === undefined ? undefined : Object.values(row)[0];
  };

  it('binds and runs a prepared statement in one call, without describing it again', async () => {
    const statements = namedStatementsOf(pglite);
    const text = 'SELECT id, name, tags, made, extra FROM item WHERE id = $1';
    calls.length = 0;
    const first = await statements.run(text, [1]);
    const second = await statements.run(text, [2]);
    // Parse, Describe and Sync once; then Bind, Execute and Sync, one call each time.
    expect(calls).toEqual([
      ['P', 'D', 'S'],
      ['B', 'E', 'S'],
      ['B', 'E', 'S'],
    ]);
    // Rows read with the description PostgreSQL gave when the statement was prepared.
    expect(first.rows).toEqual([
      {
        id: 1,
        name: 'one',
        tags: ['a', 'b'],
        made: new Date('2024-05-01T10:00:00.123Z'),
        extra: { k: 1 },
      },
    ]);
    expect(first.fields.map((field) => field.name)).toEqual([
      'id',
      'name',
      'tags',
      'made',
      'extra',
    ]);
    expect(second.rows).toEqual([{ id: 2, name: 'two', tags: [], made: null, extra: null }]);
    const update = await statements.run('UPDATE item SET name = name WHERE id <= $1', [2]);
    expect(update).toMatchObject({ affectedRows: 2, rows: [] });
  });

  it('sets and resets the plan mode in the same call, also when the statement fails', async () => {
    const statements = namedStatementsOf(pglite);
    const mode = () => firstValue("SELECT current_setting('plan_cache_mode')");
    expect(await mode()).toBe('auto');
    const underTheSetting = "SELECT current_setting('plan_cache_mode') AS mode, $1::int AS n";
    await statements.run(underTheSetting, [1], true);
    calls.length = 0;
    const answer = await statements.run<{ mode: string; n: number }>(underTheSetting, [2], true);
    expect(calls).toEqual([['Q', 'B', 'E', 'S', 'Q']]);
    expect(answer.rows).toEqual([{ mode: 'force_generic_plan', n: 2 }]);
    expect(await mode()).toBe('auto');
    await expect(statements.run('SELECT 1 / $1::int', [0], true)).rejects.toMatchObject({
      code: '22012',
    });
    expect(await mode()).toBe('auto');
    // Inside a transaction that fails, the rollback leaves the session as it was.
    await statements.run('BEGIN', []);
    await expect(statements.run('SELECT 1 / $1::int', [0], true)).rejects.toMatchObject({
      code: '22012',
    });
    await statements.run('ROLLBACK', []);
    expect(await mode()).toBe('auto');
  });

  it('closes a statement no longer kept in the next call, before the statement it runs', async () => {
    const statements = namedStatementsOf(pglite);
    const kept = () => firstValue('SELECT count(*)::int FROM pg_prepared_statements');
    for (let i = 0; i < 201; i += 1) await statements.run(`SELECT ${i} AS n`, []);
    // 200 kept: preparing one more text puts the least recently used out, closed by the call
    // that runs the new one.
    calls.length = 0;
    const answer = await statements.run<{ n: number }>('SELECT $1::int AS n', [7], true);
    expect(calls.at(-1)).toEqual(['Q', 'C', 'B', 'E', 'S', 'Q']);
    expect(answer.rows).toEqual([{ n: 7 }]);
    // Every statement put out is closed: PostgreSQL holds exactly the 200 kept.
    expect(await kept()).toBe(200);
  });
});
