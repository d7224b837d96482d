import fastifySwagger, { type SwaggerTransformObject } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Access } from '../auth/roles.js';
import { API_VERSION } from '../routes/service.js';
import { DOCS_PREFIX, OPENAPI_PATH } from './paths.js';

export { DOCS_PREFIX, OPENAPI_PATH };

const ERROR_SCHEMA_NAME = 'Error';
interface OpenApiDocument {
  paths?: unknown;
  components?: { schemas?: Record<string, unknown> };
}

/** How a route's declared access reads in the document. */
function describeAccess(access: Access): string {
  if (access === 'public') return 'Public.';
  if (access === 'authenticated') return 'Any valid token.';
  if (Array.isArray(access)) return `Roles: ${access.join(', ')}.`;
  return `The account's owner, or roles: ${(access as { ownerOr: readonly string[] }).ownerOr.join(', ')}.`;
}

/** ErrorResponse as it reads in the document (@fastify/swagger writes `const` as `enum`). */
function isErrorSchema(value: unknown): boolean {
  const schema = value as { type?: unknown; properties?: Record<string, { enum?: unknown[] }> };
  const properties = schema?.properties;
  return (
    schema?.type === 'object' &&
    properties !== undefined &&
    Object.keys(properties).sort().join() === 'message,status' &&
    properties.status?.enum?.length === 1 &&
    properties.status.enum[0] === 'error'
  );
}

/**
 * Every error answer has one shape; the document declares it once (components.schemas.Error)
 * and every operation's error responses point to it, instead of repeating it in each route.
 */
function shareErrorSchema(node: unknown): void {
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'schema' && isErrorSchema(value)) {
      (node as Record<string, unknown>)[key] = {
        $ref: `#/components/schemas/${ERROR_SCHEMA_NAME}`,
      };
    } else shareErrorSchema(value);
  }
}

const CSV_TYPE = 'text/csv';
const CSV_EXPORT = {
  type: 'string',
  description:
    'Every matching row, not one page (`?format=csv` or `Accept: text/csv`): a header row of ' +
    'the selected fields, RFC 4180 quoting, tags joined with commas, and a cell starting with ' +
    "`=`, `+`, `-`, `@`, a tab or a carriage return prefixed with `'` (CSV injection).",
};
const CSV_IMPORT = {
  type: 'string',
  description:
    'A CSV file: a header row naming the fields, then one record per row (at most 1000), ' +
    'created all or none like a JSON array; errors name the row (the header is row 1) and field.',
};

interface Operation {
  parameters?: Array<{ in?: string; name?: string }>;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/**
 * Lists answer text/csv too (pages.ts): every operation with the `format` query parameter gets
 * it as a second media type of its 200 answer. The creates that read CSV declare it in their
 * route's `consumes`; @fastify/swagger gives it the JSON body's schema, replaced here by text.
 */
function describeCsv(paths: unknown): void {
  for (const item of Object.values((paths ?? {}) as Record<string, Record<string, Operation>>)) {
    for (const operation of Object.values(item)) {
      const exportsCsv = operation.parameters?.some(
        (parameter) => parameter.in === 'query' && parameter.name === 'format',
      );
      const ok = operation.responses?.['200'];
      if (exportsCsv && ok) ok.content = { ...ok.content, [CSV_TYPE]: { schema: CSV_EXPORT } };
      // @fastify/swagger gives both media types one shared object: replaced, not changed.
      const body = operation.requestBody?.content;
      if (body?.[CSV_TYPE]) body[CSV_TYPE] = { schema: CSV_IMPORT };
    }
  }
}

const ERROR_SCHEMA = {
  type: 'object',
  required: ['status', 'message'],
  properties: {
    status: { type: 'string', enum: ['error'] },
    message: { type: 'string' },
  },
};

/**
 * The OpenAPI 3 document, generated from the route schemas by @fastify/swagger (which must see
 * every route, so this is registered before them), served at GET /openapi.json, and the Swagger
 * UI at /docs. Both are public. The UI's routes get their own content security policy (the
 * API's allows nothing); every other route keeps the API's.
 */
export const openApi = fp(
  async (app: FastifyInstance) => {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Network Inventory API',
          version: `${API_VERSION}.0.0`,
          description:
            'Inventory of locations, devices, interfaces, VLANs and links, with events, metrics, ' +
            'an audit log and user accounts. Every error is `{"status": "error", "message"}`.',
        },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
        security: [{ bearer: [] }],
      },
      transform: ({ schema, url, route }) => {
        const access: Access = route.config?.access ?? 'authenticated';
        const documented = { ...schema, description: describeAccess(access) };
        // A prefixed plugin's `/` route answers at `/devices` and `/devices/`: document one.
        const path = url.length > 1 ? url.replace(/\/$/, '') : url;
        return {
          schema: access === 'public' ? { ...documented, security: [] } : documented,
          url: path,
        };
      },
      transformObject: (documentObject) => {
        const document = structuredClone(
          (documentObject as { openapiObject: OpenApiDocument }).openapiObject,
        );
        shareErrorSchema(document.paths);
        describeCsv(document.paths);
        document.components = {
          ...document.components,
          schemas: {
            ...document.components?.schemas,
            [ERROR_SCHEMA_NAME]: ERROR_SCHEMA,
          },
        };
        return document as ReturnType<SwaggerTransformObject>;
      },
    });
    await app.register(documentationRoutes);
  },
  { name: 'openapi' },
);

/** In its own encapsulated context, so that what it changes stays on these routes. */
const documentationRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, access: 'public' };
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    // The UI's own policy (script hashes of its inline code) on its routes only; without
    // upgrade-insecure-requests, which would send a browser on plain HTTP to https:// assets.
    staticCSP: true,
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
};
