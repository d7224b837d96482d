import { types as pgliteTypes } from '@electric-sql/pglite';
import fc from 'fast-check';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../src/index.js';
import { openTestStore, testDatabaseUrl } from '../src/testing.js';
import { parseIsoTimestamptz, timestamptzParser } from '../src/timestamps.js';

const pgParse = pg.types.getTypeParser(1184, 'text') as (text: string) => Date;
const pgliteParse = (text: string) => pgliteTypes.parseType(text, pgliteTypes.TIMESTAMPTZ) as Date;

const pad = (value: number, width: number) => String(value).padStart(width, '0');
const between = (min: number, max: number) => fc.integer({ min, max });

/** Text as PostgreSQL writes a timestamptz with DateStyle ISO, in some time zone. */
const postgresText = fc
  .record({
    year: between(1000, 9999),
    month: between(1, 12),
    day: between(1, 28),
    hour: between(0, 23),
    minute: between(0, 59),
    second: between(0, 59),
    // No fraction, or 1 to 6 digits of it (PostgreSQL drops trailing zeros).
    fraction: fc.oneof(
      fc.constant(''),
      between(1, 6).chain((digits) =>
        between(1, 10 ** digits - 1).map((value) => `.${pad(value, digits)}`),
      ),
    ),
    zone: fc.constantFrom('+00', '-05', '+05:30', '-03:30', '+14', '-12', '+01:02:03'),
  })
  .map(
    (t) =>
      `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)} ` +
      `${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}${t.fraction}${t.zone}`,
  );

describe('timestamptz parsing', () => {
  it("gives the same instant as pg's own parser for 20,000 PostgreSQL texts", () => {
    fc.assert(
      fc.property(postgresText, (text) => {
        expect(parseIsoTimestamptz(text)?.getTime(), text).toBe(pgParse(text).getTime());
      }),
      { numRuns: 20_000 },
    );
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
