/**
 * `npm run lint:openapi -w apps/chat`: builds the service as the tests do (embedded store, no
 * listening), asks it for GET /api/v1/openapi.json and runs `redocly lint` on the answer with
 * redocly.yaml. Exits with redocly's status.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintOpenApiDocument } from '@netops/service-runtime/testing';
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
process.exit(lintOpenApiDocument(response, { appDir, path: OPENAPI_PATH }));
