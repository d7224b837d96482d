import { parseArgs } from 'node:util';
import { openTestStore } from '@netops/store/testing';
import { HOSTILE_BODIES } from '../reliability/support/hostile-bodies.js';
import { buildApp } from '../src/app.js';
import { PasswordHasher } from '../src/auth/passwords.js';
import { seedInitialAccounts } from '../src/auth/users.js';
import { type Database, MIGRATIONS_FOLDER } from '../src/db/schema.js';
import { TEST_HASHING, TEST_PASSWORD, testConfig } from '../test/helpers.js';

/**
 * `npm run bench:hostile -w apps/inventory [-- --repeat N]`: CPU time (user + system, this
 * process) the API spends on each hostile body of reliability/support/hostile-bodies.ts, sent
 * unauthenticated to a public route that takes a body (`POST /users/login`), one that takes none
 * (`POST /users/logout`) and an unknown URL, through `inject` (no sockets: only the service's
 * own work is measured). The bound: 20 ms per 1 MB body.
 */
const { values } = parseArgs({ options: { repeat: { type: 'string', default: '5' } } });
const repeat = Number(values.repeat);

const store = await openTestStore<Database>({ migrations: MIGRATIONS_FOLDER });
await seedInitialAccounts(store.db, new PasswordHasher(TEST_HASHING), TEST_PASSWORD);
const app = await buildApp(testConfig(), { store });
await app.ready();

const ROUTES = ['/users/login', '/users/logout', '/nowhere'];
const rows: Array<Record<string, string | number>> = [];
for (const [name, build] of Object.entries(HOSTILE_BODIES)) {
  const payload = build();
  const row: Record<string, string | number> = { body: name, bytes: payload.length };
  for (const url of ROUTES) {
    const cpu: number[] = [];
    let status = 0;
    for (let i = 0; i < repeat; i++) {
      const started = process.cpuUsage();
      const response = await app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload,
      });
      const used = process.cpuUsage(started);
      cpu.push((used.user + used.system) / 1000);
      status = response.statusCode;
    }
    cpu.sort((a, b) => a - b);
    row[`${url} ms (median)`] = Number((cpu[Math.floor(cpu.length / 2)] ?? 0).toFixed(1));
    row[`${url} status`] = status;
  }
  rows.push(row);
  console.log(JSON.stringify(row));
}
console.table(rows);
await app.close();
await store.close();
