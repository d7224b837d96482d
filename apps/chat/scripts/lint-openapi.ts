/**
 * `npm run lint:openapi -w apps/chat`: builds the service as the tests do (embedded store, no
 * listening), asks it for GET /api/v1/openapi.json, writes the answer to a temporary file and runs
 * `redocly lint` on it with redocly.yaml. Exits with redocly's status.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTestStore } from '@netops/store/testing';
import { buildApp } from '../src/app.js';
import { type Database, MIGRATIONS } from '../src/db/schema.js';
import { OPENAPI_PATH } from '../src/openapi.js';
import { testConfig } from '../test/support/harness.js';

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const store = await openTestStore<Database>({ migrations: MIGRATIONS });
// No provider is called: the document only needs the configured services' routes.
const app = await buildApp(testConfig('http://127.0.0.1:9'), { store });
const response = await app.inject({ method: 'GET', url: OPENAPI_PATH });
await app.close();
await store.close();
if (response.statusCode !== 200) {
  console.error(`GET ${OPENAPI_PATH}: ${response.statusCode}\n${response.body}`);
  process.exit(1);
}
const directory = mkdtempSync(join(tmpdir(), 'chat-openapi-'));
const file = join(directory, 'openapi.json');
writeFileSync(file, response.body);
const lint = spawnSync('redocly', ['lint', '--config', join(appDir, 'redocly.yaml'), file], {
  stdio: 'inherit',
  cwd: appDir,
  // No telemetry or update check from CI.
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});
rmSync(directory, { recursive: true, force: true });
process.exit(lint.status ?? 1);
