/**
 * `npm run openapi:types -w apps/inventory`: writes the typed client's types
 * (test/client/api-types.ts) from the service's OpenAPI document, as the test compares them.
 */
import { writeFileSync } from 'node:fs';
import { OPENAPI_PATH } from '../src/http/paths.js';
import { generateTypes, TYPES_FILE } from '../test/client/generate-types.js';
import { startTestApp } from '../test/helpers.js';

const ctx = await startTestApp();
const response = await ctx.app.inject({ method: 'GET', url: OPENAPI_PATH });
await ctx.close();
writeFileSync(TYPES_FILE, await generateTypes(response.json()));
console.log(`wrote ${TYPES_FILE}`);
