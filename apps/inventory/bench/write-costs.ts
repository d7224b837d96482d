import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { openStore, type Store } from '@netops/store';
import { sql } from 'kysely';
import type { Database } from '../src/db/schema.js';
import { machineText } from './report.js';

/**
 * `npm run bench:write-costs -w apps/inventory -- [--database-url URL] [--statements N]`
 * (README "What a PATCH costs, part by part"): what each part of a device's PATCH costs
 * PostgreSQL, taken away one at a time.
 *
 * Throughput under load mixes a write's own cost with the other processes on the machine (the
 * server, the load generator) and swings with the machine's speed. One connection sending one
 * statement after another waits for no one: its latency is the statement's cost (its CPU, and
 * the commit's WAL flush, which concurrent writers share), and it repeats closely. So this sends
 * the API's PATCH statement (the record's columns returned, the writer named in the same
 * statement) from one connection to copies of the data set the inventory benchmark loaded, and
 * takes away, in order: the webhook outbox, the history, the value counters, every other
 * trigger; then the GIN indexes, and every index that is not unique. Each step's difference from
 * the one before is what that part costs.
 *
 * The triggers are switched on the first copy. The indexes are compared on three more copies,
 * triggers off: every index, no GIN index, only the unique ones. The steps take turns, a block of
 * statements each, ROUNDS times, and each reports its median block: a checkpoint (whose
 * full-page writes make the first change of every page dearer) or another process then weighs on
 * every step alike. A last row, a round trip alone, is what every row includes of the client's
 * and the protocol's own time.
 */

const USAGE = `Usage: npm run bench:write-costs -w apps/inventory -- [options]
  --database-url URL  the inventory benchmark's database (default
                      postgres://postgres@127.0.0.1:5432/inventory_bench): its copy as loaded,
                      <name>_loaded, is copied four times (<name>_costs...), measured, and
                      the copies are dropped
  --statements N      statements measured per step, in 24 blocks (default 2000; 20 more,
                      unmeasured, before each block)
  --help`;

/** A usage error: said plainly, without a stack trace. */
function fail(message: string): never {
  process.stderr.write(`write-costs: ${message}\n${USAGE}\n`);
  process.exit(2);
}

const parsed = (() => {
  try {
    return parseArgs({
      options: {
        'database-url': {
          type: 'string',
          default: 'postgres://postgres@127.0.0.1:5432/inventory_bench',
        },
        statements: { type: 'string', default: '2000' },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
})();
const { values } = parsed;
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const statements = Number(values.statements);
if (!Number.isInteger(statements) || statements < 100 || statements > 1_000_000) {
  fail('--statements must be an integer from 100 to 1,000,000');
}
const benchUrl = URL.canParse(values['database-url'])
  ? new URL(values['database-url'])
  : fail('--database-url must be a postgres:// URL');
const benchName = benchUrl.pathname.slice(1);
// The copies' names must stay under PostgreSQL's 63 bytes, or two would be cut to one name.
if (!/^[A-Za-z_][A-Za-z0-9_]{0,39}$/.test(benchName) || benchName === 'postgres') {
  fail('--database-url must name the benchmark database (letters, digits, _; 40 at most)');
}
const loadedName = `${benchName}_loaded`;
const urlOf = (name: string) => {
  const url = new URL(benchUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

const STATUSES = ['active', 'maintenance', 'offline', 'provisioning'] as const;
/** The writer, as the API names it (no principal: the identity check is not measured). */
const ACTOR = JSON.stringify({
  user_id: null,
  username: 'bench',
  request_id: 'write-costs',
  client_ip: '127.0.0.1',
  resource: 'devices',
  action: 'update',
});

const exec = (store: Store<Database>, text: string) => sql.raw(text).execute(store.db);

/** A copy of the data set, and what is taken from it once, before any statement is measured. */
interface Copy {
  suffix: string;
  prepare: (store: Store<Database>) => Promise<void>;
}

const dropIndexes = async (store: Store<Database>, which: 'gin' | 'not unique') => {
  const rows = await sql<{ name: string }>`
    SELECT i.indexrelid::regclass::text AS name
    FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indexrelid JOIN pg_am AS a ON a.oid = c.relam
    WHERE i.indrelid = 'devices'::regclass
      AND (${which} = 'gin' AND a.amname = 'gin' OR ${which} = 'not unique' AND NOT i.indisunique)`.execute(
    store.db,
  );
  for (const row of rows.rows) await exec(store, `DROP INDEX ${row.name}`);
};

const COPIES: Copy[] = [
  { suffix: '_costs', prepare: async () => {} },
  {
    suffix: '_costs_notriggers',
    prepare: async (store) => {
      await exec(store, 'ALTER TABLE devices DISABLE TRIGGER USER');
    },
  },
  {
    suffix: '_costs_nogin',
    prepare: async (store) => {
      await exec(store, 'ALTER TABLE devices DISABLE TRIGGER USER');
      await dropIndexes(store, 'gin');
    },
  },
  {
    suffix: '_costs_unique',
    prepare: async (store) => {
      await exec(store, 'ALTER TABLE devices DISABLE TRIGGER USER');
      await dropIndexes(store, 'not unique');
    },
  },
];

/**
 * One step: the copy its statements go to and, on the first copy, how much is switched off:
 * `level` n takes away the first n parts, set whole whatever the step before left.
 */
interface Step {
  name: string;
  /** The steps compared with each other: each part is a step's difference from the one before. */
  part: 'triggers' | 'indexes' | 'floor';
  copy: number;
  /** -1: not a PATCH (the round trip alone). */
  level: number;
}

const STEPS: Step[] = [
  {
    name: 'everything: history, counters, versions, outbox (1 webhook)',
    part: 'triggers',
    copy: 0,
    level: 0,
  },
  { name: 'without the webhook outbox', part: 'triggers', copy: 0, level: 1 },
  { name: 'without the history', part: 'triggers', copy: 0, level: 2 },
  { name: 'without the value counters', part: 'triggers', copy: 0, level: 3 },
  { name: 'without any trigger', part: 'triggers', copy: 0, level: 4 },
  // The indexes' copies get the same number of statements each, so their pages are as warm.
  { name: 'no trigger, every index (28)', part: 'indexes', copy: 1, level: 4 },
  {
    name: 'without the GIN indexes (search, hostname trigrams, tags)',
    part: 'indexes',
    copy: 2,
    level: 4,
  },
  {
    name: 'with only the unique indexes (the update can be HOT)',
    part: 'indexes',
    copy: 3,
    level: 4,
  },
  // What every row above includes: the client's and the protocol's own time.
  { name: 'a round trip alone (SELECT 1)', part: 'floor', copy: 0, level: -1 },
];

/** Sets the first copy to a step's level: each part is on or off whatever it was before. */
async function setLevel(store: Store<Database>, level: number): Promise<void> {
  await exec(store, `UPDATE webhooks SET enabled = ${level < 1}`);
  await exec(store, `ALTER TABLE devices ${level < 4 ? 'ENABLE' : 'DISABLE'} TRIGGER USER`);
  if (level === 3) {
    await exec(store, 'ALTER TABLE devices DISABLE TRIGGER devices_value_counts_update');
  }
}

/** Writes without naming the writer from level 2 on: no history. */
const anonymousAt = (level: number) => level >= 2;

/** Blocks each step's statements are measured in, the steps taking turns. */
const ROUNDS = 24;

async function main(): Promise<void> {
  const admin = await openStore<Database>({ databaseUrl: urlOf('postgres'), dataDir: '' });
  const dropCopies = async () => {
    for (const copy of COPIES) {
      await exec(admin, `DROP DATABASE IF EXISTS ${benchName}${copy.suffix} WITH (FORCE)`);
    }
  };
  const stores: Store<Database>[] = [];
  try {
    const loaded = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_database WHERE datname = ${loadedName}`.execute(admin.db);
    if (loaded.rows[0]?.n !== 1) {
      throw new Error(
        `no ${loadedName}: run the inventory benchmark once on ${benchName} ` +
          `(npm run bench:inventory -- --only POST --database-url ${values['database-url']}) ` +
          'so that it loads and keeps the data set',
      );
    }
    await dropCopies();
    for (const copy of COPIES) {
      const name = `${benchName}${copy.suffix}`;
      await exec(admin, `CREATE DATABASE ${name} TEMPLATE ${loadedName}`);
      const store = await openStore<Database>({ databaseUrl: urlOf(name), dataDir: '' });
      stores.push(store);
      await copy.prepare(store);
      await exec(store, 'VACUUM ANALYZE devices');
    }
    // The copies' pages written out before the first step, not during it (database-copy.ts).
    await exec(admin, 'CHECKPOINT');
    await measureSteps(stores);
  } finally {
    for (const store of stores) await store.close();
    await dropCopies();
    await admin.close();
  }
}

async function measureSteps(stores: Store<Database>[]): Promise<void> {
  const [first] = stores;
  if (!first) throw new Error('no copy of the data set');
  const ids = (
    await sql<{ id: string }>`SELECT id FROM devices ORDER BY md5(id::text)`.execute(first.db)
  ).rows.map((row) => row.id);
  const version = await sql<{ v: string }>`SELECT version() AS v`.execute(first.db);
  await sql`INSERT INTO webhooks (id, name, url, resources)
    VALUES (gen_random_uuid(), 'write-costs', 'http://127.0.0.1:9/', '{devices}')`.execute(
    first.db,
  );
  process.stdout.write(
    `machine: ${machineText()}; load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}\n` +
      `database: ${version.rows[0]?.v.split(' on ')[0]}, ${ids.length} devices, one connection, ` +
      `${statements} PATCH statements per step in ${ROUNDS} blocks ` +
      `(each changes a status and a rack position)\n\n`,
  );
  let next = 0;
  const patch = async (store: Store<Database>, anonymous: boolean) => {
    const n = next++;
    // Every statement writes another device: none finds its pages already changed by another.
    const id = ids[n % ids.length] as string;
    await sql`
      WITH updated AS (
        UPDATE devices SET rack_position = ${`R${n % 40}-U${n % 42}`},
          status = ${STATUSES[n % STATUSES.length]}, updated_at = now()
        WHERE id = ${id}
        RETURNING id, created_at, updated_at, hostname, ip, vendor, model, os, os_version, status,
          role, serial_number, rack_position, location_id, last_seen, tags, xmin::text AS etag)
      SELECT * FROM updated
      WHERE set_config('inventory.actor', ${anonymous ? '' : ACTOR}, true) IS NOT NULL`.execute(
      store.db,
    );
  };
  const block = Math.max(10, Math.round(statements / ROUNDS));
  const blocks = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const step of STEPS) {
      const store = stores[step.copy] as Store<Database>;
      if (step.copy === 0 && step.level >= 0) await setLevel(store, step.level);
      const anonymous = anonymousAt(step.level);
      // A few unmeasured: the first statements after a switch plan again.
      const send = () =>
        step.level < 0 ? sql`SELECT 1`.execute(store.db) : patch(store, anonymous);
      for (let i = 0; i < 20; i++) await send();
      const started = process.hrtime.bigint();
      for (let i = 0; i < block; i++) await send();
      const ms = Number(process.hrtime.bigint() - started) / 1e6 / block;
      blocks.set(step.name, [...(blocks.get(step.name) ?? []), ms]);
    }
  }
  const median = (list: number[]) => {
    const sorted = [...list].sort((x, y) => x - y);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  };
  const rows = STEPS.map((step) => ({ ...step, runs: blocks.get(step.name) ?? [] }));
  const full = median(rows[0]?.runs ?? [0]);
  process.stdout.write(
    `${'step'.padEnd(62)} ${'ms per PATCH'.padStart(12)} ${'blocks'.padStart(13)} ` +
      `${'this part'.padStart(9)} ${'share'.padStart(5)}\n`,
  );
  rows.forEach((row, index) => {
    const here = median(row.runs);
    const previous = rows[index - 1];
    if (previous && previous.part !== row.part) process.stdout.write('\n');
    const before = previous?.part === row.part ? median(previous.runs) : undefined;
    const part = before === undefined ? '' : (before - here).toFixed(3);
    const share = before === undefined ? '' : `${Math.round((100 * (before - here)) / full)} %`;
    const range = `${Math.min(...row.runs).toFixed(3)}–${Math.max(...row.runs).toFixed(3)}`;
    process.stdout.write(
      `${row.name.padEnd(62)} ${here.toFixed(3).padStart(12)} ${range.padStart(13)} ` +
        `${part.padStart(9)} ${share.padStart(5)}\n`,
    );
  });
  process.stdout.write(
    `\nshare: of the whole PATCH (the first row). Each row: the median of its ${ROUNDS} blocks, ` +
      'and the fastest and slowest block.\n',
  );
}

await main().catch((error: unknown) => {
  process.stderr.write(`write-costs: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
