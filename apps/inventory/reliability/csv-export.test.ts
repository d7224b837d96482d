// The CSV export against clients that stop reading or go away in the middle of it, and against
// hostile filter values: PostgreSQL's COPY takes no bound parameters, so on that store the
// export's values are written into its statement as quoted literals.
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyDatabase } from '../src/db/schema.js';
import { startTestApp, type TestContext } from '../test/helpers.js';

const DEVICES = 20_000;
let ctx: TestContext;
let base: string;

beforeAll(async () => {
  ctx = await startTestApp();
  const db = ctx.store.db as AnyDatabase;
  await sql`INSERT INTO devices (id, hostname, ip, model)
    SELECT gen_random_uuid(), 'export-' || n, '10.64.0.0'::inet + n, repeat('m', 200)
    FROM generate_series(1, ${DEVICES}) AS n`.execute(db);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(() => ctx?.close());

/** Starts an export and destroys the socket once `afterBytes` have arrived. */
function abandonedExport(afterBytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/devices?format=csv`, {
      headers: { authorization: `Bearer ${ctx.tokens.viewer}` },
    });
    req.on('response', (response) => {
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= afterBytes) {
          req.destroy();
          resolve(received);
        }
      });
      response.on('end', () => resolve(received));
    });
    req.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
    req.end();
  });
}

/** Sessions of this database still running a COPY (PostgreSQL store only). */
async function runningCopies(): Promise<number | undefined> {
  if (ctx.store.kind !== 'postgres') return undefined;
  const result = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND query LIKE 'COPY (%' AND state = 'active'`.execute(
    ctx.store.db,
  );
  return result.rows[0]?.n;
}

describe('CSV export under clients that leave', () => {
  it('frees the connection of every abandoned export; later exports and requests are whole', async () => {
    // More abandoned exports than the pool has connections: a leaked one would block the rest.
    for (let round = 0; round < 15; round++) {
      expect(await abandonedExport(64 * 1024)).toBeGreaterThan(0);
    }
    for (let wait = 0; wait < 50 && (await runningCopies()) !== 0; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await runningCopies()).toBe(ctx.store.kind === 'postgres' ? 0 : undefined);
    const whole = await fetch(`${base}/devices?format=csv&fields=hostname`, {
      headers: { authorization: `Bearer ${ctx.tokens.viewer}` },
    });
    expect(whole.status).toBe(200);
    expect(parse(await whole.text(), { columns: true })).toHaveLength(DEVICES);
    const list = await ctx.as('viewer', { method: 'GET', url: '/devices?limit=1' });
    expect(list.json().meta.total_count).toBe(DEVICES);
  });

  it('treats hostile filter values as values: quotes, backslashes, dollar quotes, comments', async () => {
    const hostile = [
      `'); DROP TABLE devices; --`,
      `\\'; SELECT pg_sleep(10); --`,
      '$$; DROP TABLE devices; $$',
      '$1',
      '*/ OR 1=1 /*',
      `E'\\x41'`,
      'Zürich 東京 🚀',
    ];
    for (const value of hostile) {
      const query = new URLSearchParams({ format: 'csv', model: value, fields: 'hostname' });
      const started = Date.now();
      const response = await ctx.as('viewer', { method: 'GET', url: `/devices?${query}` });
      expect(response.statusCode, value).toBe(200);
      expect(response.body, value).toBe('hostname\r\n');
      expect(Date.now() - started, value).toBeLessThan(5000);
      const search = new URLSearchParams({ format: 'csv', model__ic: value, fields: 'hostname' });
      const searched = await ctx.as('viewer', { method: 'GET', url: `/devices?${search}` });
      expect(searched.statusCode, value).toBe(200);
    }
    const list = await ctx.as('viewer', { method: 'GET', url: '/devices?limit=1' });
    expect(list.json().meta.total_count).toBe(DEVICES);
  });
});
