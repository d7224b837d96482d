import { types as pgliteTypes } from '@electric-sql/pglite';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../src/index.js';
import { openTestStore, testDatabaseUrl } from '../src/testing.js';
import { parseIsoTimestamptz, timestamptzParser } from '../src/timestamps.js';

const pgParse = pg.types.getTypeParser(1184, 'text') as (text: string) => Date;
const pgliteParse = (text: string) => pgliteTypes.parseType(text, pgliteTypes.TIMESTAMPTZ) as Date;

/** A PRNG with a seed, so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** Text as PostgreSQL writes a timestamptz with DateStyle ISO, in some time zone. */
function postgresText(next: () => number): string {
  const int = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
  const fractionDigits = int(0, 6);
  const fraction =
    fractionDigits === 0 ? '' : `.${pad(int(1, 10 ** fractionDigits - 1), fractionDigits)}`;
  const zones = ['+00', '-05', '+05:30', '-03:30', '+14', '-12', '+01:02:03'];
  return (
    `${pad(int(1000, 9999), 4)}-${pad(int(1, 12), 2)}-${pad(int(1, 28), 2)} ` +
    `${pad(int(0, 23), 2)}:${pad(int(0, 59), 2)}:${pad(int(0, 59), 2)}${fraction}` +
    zones[int(0, zones.length - 1)]
  );
}

describe('timestamptz parsing', () => {
  it("gives the same instant as pg's own parser for 20,000 PostgreSQL texts", () => {
    const seed = Date.now() % 1_000_000;
    const next = random(seed);
    for (let i = 0; i < 20_000; i++) {
      const text = postgresText(next);
      const fast = parseIsoTimestamptz(text);
      expect(fast?.getTime(), `${text} (seed ${seed})`).toBe(pgParse(text).getTime());
    }
  });

  it("agrees with PGlite's parser on what both read", () => {
    for (const text of [
      '2026-11-23 13:14:21.17988+00',
      '2026-11-23 13:14:21+00',
      '1999-12-31 23:59:59.999999+00',
      '2024-02-29 00:00:00.5-05',
    ]) {
      expect(parseIsoTimestamptz(text)?.getTime(), text).toBe(pgliteParse(text).getTime());
    }
  });

  it('leaves what it does not read to the driver', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '0044-03-15 12:00:00+00',
      '0044-03-15 12:00:00+00 BC',
      '12026-01-01 00:00:00+00',
      '2026-11-23T13:14:21+00',
      '2026-11-23 13:14:21.1234567+00',
      '2026-11-23 13:14:21.+00',
      '2026-11-23 13:14:21+0x',
    ]) {
      expect(parseIsoTimestamptz(text), text).toBeUndefined();
      const parse = timestamptzParser(() => 'fallback');
      expect(parse(text)).toBe('fallback');
    }
  });
});

describe(`timestamptz values from the store (${testDatabaseUrl() ? 'PostgreSQL' : 'embedded'})`, () => {
  let store: Store<unknown>;
  beforeAll(async () => {
    store = await openTestStore({ migrations: new URL('./migrations/', import.meta.url) });
  });
  afterAll(() => store?.close());

  it('come back as the Dates that were written, in any session time zone', async () => {
    const instants = [
      '2026-11-23T13:14:21.179Z',
      '1970-01-01T00:00:00.000Z',
      '2000-02-29T23:59:59.999Z',
      '9999-12-31T23:59:59.000Z',
      '1001-06-15T08:30:00.250Z',
    ];
    for (const zone of ['UTC', 'Asia/Kolkata', 'America/St_Johns']) {
      const rows = await store.db.connection().execute(async (connection) => {
        await sql`SELECT set_config('TimeZone', ${zone}, false)`.execute(connection);
        const result = await sql<{ at: Date; early: Date }>`
          SELECT at::timestamptz AS at, '0044-03-15 12:00:00+00 BC'::timestamptz AS early
          FROM unnest(${instants}::text[]) AS at`.execute(connection);
        await sql`RESET TimeZone`.execute(connection);
        return result.rows;
      });
      expect(
        rows.map((row) => row.at.toISOString()),
        zone,
      ).toEqual(instants);
      expect(rows[0]?.early).toBeInstanceOf(Date);
    }
  });
});
