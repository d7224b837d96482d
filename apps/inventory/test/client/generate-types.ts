import { spawnSync } from 'node:child_process';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

/**
 * The typed client's types, generated from the service's OpenAPI document by openapi-typescript
 * and formatted as the repository formats TypeScript (Biome), so that the committed file and a
 * fresh generation compare byte for byte (test/typed-client.test.ts fails when they drift;
 * `npm run openapi:types -w apps/inventory` writes it again).
 */
export const TYPES_FILE = join(dirname(fileURLToPath(import.meta.url)), 'api-types.ts');
const repositoryRoot = join(dirname(TYPES_FILE), '..', '..', '..', '..');

const HEADER =
  '// Generated from GET /openapi.json by openapi-typescript: do not edit.\n' +
  '// `npm run openapi:types -w apps/inventory` writes it again.\n';

export async function generateTypes(document: unknown): Promise<string> {
  const source = HEADER + astToString(await openapiTS(document as OpenAPI3));
  const formatted = spawnSync(
    join(repositoryRoot, 'node_modules', '.bin', 'biome'),
    ['format', `--stdin-file-path=${relative(repositoryRoot, TYPES_FILE)}`],
    { cwd: repositoryRoot, input: source, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (formatted.status !== 0) throw new Error(`biome format: ${formatted.stderr}`);
  return formatted.stdout;
}
