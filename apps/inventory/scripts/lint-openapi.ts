/**
 * `npm run lint:openapi -w apps/inventory`: builds the service as the tests do (embedded store, no
 * listening), asks it for GET /openapi.json, writes the answer to a temporary file and runs
 * `redocly lint` on it with redocly.yaml. Exits with redocly's status.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPENAPI_PATH } from '../src/http/paths.js';
import { startTestApp } from '../test/helpers.js';

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const ctx = await startTestApp();
const response = await ctx.app.inject({ method: 'GET', url: OPENAPI_PATH });
await ctx.close();
if (response.statusCode !== 200) {
  console.error(`GET ${OPENAPI_PATH}: ${response.statusCode}\n${response.body}`);
  process.exit(1);
}
const directory = mkdtempSync(join(tmpdir(), 'inventory-openapi-'));
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
