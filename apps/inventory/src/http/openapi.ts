import fastifySwagger, { type SwaggerTransformObject } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import type { Access } from '../auth/roles.js';
import { LOOKUP_MEANINGS, LOOKUPS } from '../resources/lookups.js';
import { API_VERSION } from '../routes/service.js';
import { DOCS_PREFIX, OPENAPI_PATH } from './paths.js';

export { DOCS_PREFIX, OPENAPI_PATH };

const ERROR_SCHEMA_NAME = 'Error';
interface OpenApiDocument {
  paths?: unknown;
  tags?: unknown;
  info?: { description?: string };
  components?: { schemas?: Record<string, unknown> };
}

/** How a route's declared access, and the API token scope it accepts, read in the document. */
function describeAccess(access: Access, apiTokenScope?: string): string {
  const people =
    access === 'public'
      ? 'Public.'
      : access === 'authenticated'
        ? 'Any valid token.'
        : Array.isArray(access)
          ? `Roles: ${access.join(', ')}.`
          : `The account's owner, or roles: ${(access as { ownerOr: readonly string[] }).ownerOr.join(', ')}.`;
  return apiTokenScope ? `${people} Also API tokens with scope ${apiTokenScope}.` : people;
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
const CSV_UPDATE = {
  type: 'string',
  description:
    'A CSV file with an `id` column (an export, edited; a file without one is refused): each ' +
    'row changes the record its id names, in the fields whose cells are not empty (an empty ' +
    'cell, tags and lists included, leaves its field as it is), at most 1000 rows, each id ' +
    'once, all or none like a JSON array. `created_at` and `updated_at` columns are ignored; ' +
    '`add_tags` and `remove_tags` (where the records have tags) and `etag` columns are read as ' +
    'in a JSON item. Errors name the row (the header is row 1) and field.',
};

interface Parameter {
  in?: string;
  name?: string;
  required?: boolean;
  description?: string;
  schema?: Record<string, unknown>;
  style?: string;
  explode?: boolean;
}

interface Operation {
  tags?: string[];
  summary?: string;
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<
    string,
    { description?: string; headers?: Record<string, unknown>; content?: Record<string, unknown> }
  >;
}

type Paths = Record<string, Record<string, Operation>>;
const operationsOf = (paths: unknown): Array<[string, string, Operation]> =>
  Object.entries((paths ?? {}) as Paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): [string, string, Operation] => [
      path,
      method,
      operation,
    ]),
  );

/**
 * Lists answer text/csv too (pages.ts): every operation with the `format` query parameter gets
 * it as a second media type of its 200 answer. The creates and batch updates that read CSV
 * declare it in their route's `consumes`; @fastify/swagger gives it the JSON body's schema,
 * replaced here by text.
 */
function describeCsv(paths: unknown): void {
  for (const item of Object.values((paths ?? {}) as Record<string, Record<string, Operation>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const exportsCsv = operation.parameters?.some(
        (parameter) => parameter.in === 'query' && parameter.name === 'format',
      );
      const ok = operation.responses?.['200'];
      if (exportsCsv && ok) ok.content = { ...ok.content, [CSV_TYPE]: { schema: CSV_EXPORT } };
      // @fastify/swagger gives both media types one shared object: replaced, not changed.
      const body = operation.requestBody?.content;
      if (body?.[CSV_TYPE]) {
        body[CSV_TYPE] = { schema: method === 'patch' ? CSV_UPDATE : CSV_IMPORT };
      }
    }
  }
}

/**
 * The service validates `ip` as an IPv4 or IPv6 address (http/validation.ts), which is exactly
 * JSON Schema's `ipv4` or `ipv6`: the document names the formats every tool knows.
 */
function documentIpFormats(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(documentIpFormats);
  if (node === null || typeof node !== 'object') return node;
  const { format, ...rest } = node as Record<string, unknown>;
  if (format === 'ip') {
    const { type: _type, ...annotations } = rest;
    return {
      ...annotations,
      anyOf: [
        { type: 'string', format: 'ipv4' },
        { type: 'string', format: 'ipv6' },
      ],
    };
  }
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, documentIpFormats(value)]),
  );
}

/** The query parameter holding a list's lookups (`field__lookup`) in the document. */
export const LOOKUPS_PARAMETER = 'lookups';

/**
 * A list offers up to ~150 lookups (`hostname__ic`, `vlan_id__gte`…); as parameters of their
 * own they would bury paging, sorting and the exact filters. The document lists them as the
 * properties of one query parameter, `lookups`, serialised `form`/`explode` (each property is
 * its own `name=value` pair, exactly as sent today), described by the grammar (once, in the
 * document's description) and a line per field naming its lookups.
 */
function compactLookups(paths: unknown): void {
  for (const [, , operation] of operationsOf(paths)) {
    const lookups = (operation.parameters ?? []).filter(
      (parameter) => parameter.in === 'query' && parameter.name?.includes('__'),
    );
    if (lookups.length === 0) continue;
    const byField = new Map<string, string[]>();
    const properties: Record<string, unknown> = {};
    for (const parameter of lookups) {
      const [field = '', lookup = ''] = (parameter.name ?? '').split('__');
      byField.set(field, [...(byField.get(field) ?? []), lookup]);
      properties[parameter.name ?? ''] = {
        ...parameter.schema,
        ...(parameter.description ? { description: parameter.description } : {}),
      };
    }
    const perField = [...byField].map(([field, names]) => `\`${field}\`: ${names.join(' ')}`);
    operation.parameters = [
      ...(operation.parameters ?? []).filter((parameter) => !lookups.includes(parameter)),
      {
        name: LOOKUPS_PARAMETER,
        in: 'query',
        style: 'form',
        explode: true,
        description:
          'Lookup filters, each its own query parameter `<field>__<lookup>=<value>` ' +
          '(`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). ' +
          `Per field: ${perField.join('; ')}.`,
        schema: { type: 'object', additionalProperties: false, properties },
      },
    ];
  }
}

/** The lookup grammar, once for the whole document. */
function lookupGrammar(): string {
  const lines = LOOKUPS.map((lookup) => `- \`${lookup}\`: ${LOOKUP_MEANINGS[lookup]}`);
  return [
    '## Lookups',
    'Lists filter by exact value (`?status=active`) and by lookups, `<field>__<lookup>=<value>` ' +
      "(NetBox's and django-filter's grammar): each list's `lookups` parameter names the lookups " +
      "each field offers (a field's type decides them). Text to match is 1 to 255 characters " +
      'without control characters; `%`, `_` and `\\` match themselves. An unknown lookup is 400.',
    ...lines,
  ].join('\n');
}

/** `getDevicesById`: unique, as a method and a path are. */
function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith('{') ? `by-${segment.slice(1, -1)}` : segment))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((word) => word[0]?.toUpperCase() + word.slice(1))]
    .join('')
    .replace(/^get$/, 'getRoot');
}

/** A summary for an operation whose route declares none: what its method does to its path. */
function summaryOf(method: string, path: string): string {
  const segments = path.split('/').filter(Boolean);
  const last = segments.at(-1) ?? '';
  const target = last.startsWith('{') ? `one of ${segments.at(-2) ?? ''}` : last || 'the service';
  const verb: Record<string, string> = {
    get: 'Read',
    post: 'Send to',
    put: 'Replace',
    patch: 'Change',
    delete: 'Delete',
  };
  return `${verb[method] ?? method.toUpperCase()} ${target}`;
}

/**
 * Operations grouped by resource (the first path segment is the tag, `service` for `/`), each
 * with a summary and a unique operationId; the tags declared once with what they hold.
 */
function describeOperations(document: { paths?: unknown; tags?: unknown }): void {
  const tags = new Set<string>();
  for (const [path, method, operation] of operationsOf(document.paths)) {
    const tag = path.split('/').filter(Boolean)[0] ?? 'service';
    tags.add(tag);
    operation.tags = [tag];
    operation.summary ??= summaryOf(method, path);
    operation.operationId = operationIdOf(method, path);
  }
  document.tags = [...tags].sort().map((name) => ({
    name,
    description:
      name === 'service'
        ? 'What the service is and where its API description is.'
        : `Everything under \`/${name}\`.`,
  }));
}

/** Headers of answers that ask the client to come back later. */
const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 0 },
  },
};

/** A documented error answer gets the headers its status carries. */
function describeErrorHeaders(paths: unknown): void {
  for (const [, , operation] of operationsOf(paths)) {
    for (const status of ['429', '503']) {
      const response = operation.responses?.[status];
      if (response) response.headers = { ...response.headers, ...RETRY_AFTER };
    }
  }
}

/** An error answer in the document: the one error shape, and when it is given. */
const errorAnswer = (description: string) =>
  Type.Object({ status: Type.Literal('error'), message: Type.String() }, { description });

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A body naming existing records by id (a batch PATCH's items, a batch DELETE's ids). */
function namesRecords(body: unknown): boolean {
  const items = (body as { type?: unknown; items?: Record<string, unknown> } | undefined)?.items;
  if ((body as { type?: unknown } | undefined)?.type !== 'array' || !items) return false;
  const id = (items.properties as Record<string, { format?: unknown }> | undefined)?.id;
  return items.format === 'uuid' || id?.format === 'uuid';
}

/**
 * Every route may answer a browser 403: an Origin outside CORS_ORIGINS (protections/cors.ts),
 * and on writes a request another site sent (Sec-Fetch-Site, protections/fetch-metadata.ts).
 */
const BROWSER_REFUSAL =
  'a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site)';

/**
 * The errors a route can answer, from what it declares: its access (401), a path id or a body
 * naming records by id (404), a write (409), a body (413, 415), the rate limit (429); every route
 * may get 400 (a repeated query parameter, a bad value), 403 (a browser request refused, and the
 * token's role or scope), 421 (a Host the service does not serve) and 503 (the database cannot be
 * reached), and what Node's HTTP server and the router answer before any route runs, whatever
 * the route (protections/server-options.ts, http/routing.ts): 400 (a malformed request), 408
 * (too slow), 413 (a chunk extension over Node's limit), 414 (a URI too long) and 431 (headers
 * too large); and the 5XX range (500, an unexpected failure). Statuses the route's own schema
 * names (304, 412, a public login's 401) stay as it writes them.
 */
function errorStatuses(route: {
  method: string | string[];
  url: string;
  config?: { access?: Access; rateLimit?: unknown };
  schema?: { body?: unknown };
}): Record<string, unknown> {
  const access: Access = route.config?.access ?? 'authenticated';
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const writes = methods.some((method) => WRITE_METHODS.has(method));
  const statuses: Record<string, unknown> = {
    400: errorAnswer(
      'Bad request: a parameter, header or body value is invalid (the message names it).',
    ),
  };
  if (access !== 'public') {
    statuses[401] = errorAnswer('No valid token (missing, expired, revoked or malformed).');
  }
  statuses[403] = errorAnswer(
    access === 'public'
      ? `Forbidden: ${BROWSER_REFUSAL}.`
      : `The token's role, scope or account may not do this; or ${BROWSER_REFUSAL}.`,
  );
  if (route.url.includes(':') || namesRecords(route.schema?.body)) {
    statuses[404] = errorAnswer('No such record (a batch: one of the ids names none).');
  }
  if (writes && access !== 'public') {
    statuses[409] = errorAnswer(
      'Conflict: a unique value is taken, or the change would leave no active admin.',
    );
  }
  // Node's parser refuses the chunk extensions of any chunked body past its limit with 413.
  statuses[413] = errorAnswer(
    route.schema?.body !== undefined
      ? 'Request body too large (BODY_LIMIT).'
      : "Request body too large: a chunked body's extensions over Node's limit.",
  );
  if (route.schema?.body !== undefined) {
    statuses[415] = errorAnswer('Unsupported media type: send a Content-Type the operation reads.');
  }
  statuses[421] = errorAnswer(
    'Misdirected request: a Host the service does not serve (ALLOWED_HOSTS).',
  );
  statuses[408] = errorAnswer(
    'Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed.',
  );
  statuses[414] = errorAnswer(
    'URI too long: the request target over 8,190 characters, or a path parameter over its limit.',
  );
  statuses[431] = errorAnswer(
    'Request headers too large: the request line or headers over 16 KiB; the connection is closed.',
  );
  if (route.config?.rateLimit !== false) {
    statuses[429] = errorAnswer('Too many requests: wait Retry-After seconds.');
  }
  statuses[503] = errorAnswer('Database unavailable: retry after Retry-After seconds.');
  // As responses() writes it (resources/schemas.ts): a route declaring it keeps its own.
  statuses['5xx'] = errorAnswer('Internal error: the service failed (logged with the request id).');
  return statuses;
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
          securitySchemes: {
            bearer: {
              type: 'http',
              scheme: 'bearer',
              description:
                'A JWT from POST /users/login (also sent as the `Bearer` cookie), or an API ' +
                'token (`nit_…`) from POST /api-tokens where the operation names its scope.',
            },
          },
        },
        security: [{ bearer: [] }],
        // Relative: the server the document was read from, whatever its address.
        servers: [{ url: '/', description: 'This server' }],
      },
      transform: ({ schema, url, route }) => {
        const access: Access = route.config?.access ?? 'authenticated';
        const own = schema.response as object | undefined;
        const documented = {
          ...schema,
          description: describeAccess(access, route.config?.apiTokenScope),
          // The route's own statuses first and winning (a public login declares the 401 it
          // answers), the generic ones between.
          response: { ...own, ...errorStatuses({ ...route, schema }), ...own },
        };
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
        compactLookups(document.paths);
        describeOperations(document);
        describeErrorHeaders(document.paths);
        document.paths = documentIpFormats(document.paths);
        document.components = {
          ...document.components,
          schemas: {
            ...document.components?.schemas,
            [ERROR_SCHEMA_NAME]: ERROR_SCHEMA,
          },
        };
        if (document.info) {
          document.info.description = `${document.info.description ?? ''}\n\n${lookupGrammar()}`;
        }
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
