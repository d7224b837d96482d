/**
 * `npm run lint:openapi -w apps/inventory`: builds the service as the tests do (embedded store, no
 * listening), asks it for GET /openapi.json and runs `redocly lint` on the answer with
 * redocly.yaml. Exits with redocly's status.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintOpenApiDocument } from '@netops/service-runtime/testing';
import { OPENAPI_PATH } from '../src/http/paths.js';
import { startTestApp } from '../test/helpers.js';

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const ctx = await startTestApp();
const response = await ctx.app.inject({ method: 'GET', url: OPENAPI_PATH });
await ctx.close();
process.exit(lintOpenApiDocument(response, { appDir, path: OPENAPI_PATH }));
