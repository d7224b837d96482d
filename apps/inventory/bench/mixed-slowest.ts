import { randomBytes } from 'node:crypto';
import { openStore } from '@netops/store';
import { sql } from 'kysely';
import { mixedRequest, type MixedFacts } from './mixed.js';
import { startInventoryServer } from './processes.js';

/** Dev tool: the slowest list requests of the mixed workload, one at a time. */
const url = process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/inventory_bench_perf';
const store = await openStore<unknown>({ databaseUrl: url, dataDir: '' });
const db = store.db;
const w = async (q: ReturnType<typeof sql<{ value: string; count: number }>>) =>
  (await q.execute(db)).rows.map((r) => ({ value: String(r.value), count: Number(r.count) }));
const facts: MixedFacts = {
  deviceIds: (await sql<{ id: string }>`SELECT id FROM devices ORDER BY id`.execute(db)).rows.map((r) => r.id),
  vendors: await w(sql`SELECT vendor AS value, count(*) AS count FROM devices WHERE vendor IS NOT NULL GROUP BY 1`),
  statuses: await w(sql`SELECT status AS value, count(*) AS count FROM devices GROUP BY 1`),
  roles: await w(sql`SELECT role AS value, count(*) AS count FROM devices WHERE role IS NOT NULL GROUP BY 1`),
  locations: await w(sql`SELECT location_id::text AS value, count(*) AS count FROM devices WHERE location_id IS NOT NULL GROUP BY 1`),
  tags: await w(sql`SELECT tag AS value, count(*) AS count FROM devices, unnest(tags) tag GROUP BY 1`),
};
await store.close();
const server = await startInventoryServer({
  env: { DATABASE_URL: url, JWT_SECRET: randomBytes(32).toString('base64url'), SEED_PASSWORD: 'bench-password-not-secret', LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '0', LIST_CACHE: process.env.LIST_CACHE ?? 'on' },
});
const login = await fetch(`${server.url}/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'bench-password-not-secret' }) });
const token = ((await login.json()) as { token: string }).token;
const times: Array<[number, string]> = [];
for (let n = 0; n < Number(process.argv[3] ?? 400); n++) {
  const r = mixedRequest(facts, 'slow', n);
  if (r.class !== 'read') continue;
  const t = performance.now();
  const res = await fetch(`${server.url}${r.path}`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  times.push([performance.now() - t, r.path]);
}
times.sort((a, b) => b[0] - a[0]);
const total = times.reduce((s, [t]) => s + t, 0);
console.log(`total ${total.toFixed(0)} ms over ${times.length}`);
for (const [t, p] of times.slice(0, 25)) console.log(t.toFixed(1), p);
await server.stop();
