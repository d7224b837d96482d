// Rocket.Chat's own JSON schemas, as its server registers them: every component schema of
// `@rocket.chat/core-typings` under `#/components/schemas/<name>`, and the response schemas of
// `@rocket.chat/rest-typings` compiled against them (draft 2020-12, for `unevaluatedProperties`).
// The packages' index modules are built for bundlers (directory imports), so the two files are
// imported by path.
import core from '@rocket.chat/core-typings/dist/Ajv.js';
import { meSuccessResponseSchema } from '@rocket.chat/rest-typings/dist/v1/me/meSuccessResponse.js';
import Ajv2020Module, { type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

// CommonJS modules: their default export is the module object under Node's ESM loader.
const ajv = new Ajv2020Module.default({ allowUnionTypes: true, discriminator: true });
addFormats.default(ajv);
const components = (core.schemas.components as { schemas: Record<string, object> }).schemas;
for (const [name, schema] of Object.entries(components)) {
  ajv.addSchema(schema, `#/components/schemas/${name}`);
}

const validateMe = ajv.compile(meSuccessResponseSchema as object);

const describe = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map(
    (error) => `${error.instancePath || '(root)'} ${error.message} ${JSON.stringify(error.params)}`,
  );

/** The problems Rocket.Chat's schema of `GET /api/v1/me`'s answer finds in `body` (none: []). */
export function checkMeResponse(body: unknown): string[] {
  return validateMe(body) ? [] : describe(validateMe.errors);
}
