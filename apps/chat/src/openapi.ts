import fastifySwagger, { type SwaggerTransformObject } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

/** Where the API description and its reference page are served. */
export const OPENAPI_PATH = '/api/v1/openapi.json';
export const DOCS_PREFIX = '/api/v1/docs';

interface OperationText {
  tag: Tag;
  summary: string;
  operationId: string;
  /** Answers a route's schema does not declare (it declares none that are not JSON). */
  responses?: Record<string, unknown>;
}

type Tag = 'Login' | 'Session' | 'Sessions' | 'Two-factor' | 'Public';

const TAGS: ReadonlyArray<{ name: Tag; description: string }> = [
  { name: 'Login', description: 'Signing in with an identity provider, a resume token or OAuth.' },
  { name: 'Session', description: "The signed-in user and the session's end." },
  { name: 'Sessions', description: "A user's sessions (and, for admins, everybody's)." },
  { name: 'Two-factor', description: 'Time-based one-time passwords (TOTP) for the account.' },
  { name: 'Public', description: 'What the service tells anybody: its version, sign-in services.' },
];

/**
 * The document's words for each operation, by `METHOD path`. A route that is neither here nor
 * hidden makes the document fail to build (and the test suite with it), so no route goes
 * undescribed. Summaries and ids live here rather than in each route's schema because one
 * route can answer several methods (GET and POST /api/v1/logout), and each needs its own id.
 */
const OPERATIONS: Record<string, OperationText> = {
  'POST /api/v1/login': {
    tag: 'Login',
    summary: 'Sign in (provider credentials, resume token or OAuth redirect credential)',
    operationId: 'login',
  },
  'GET /api/v1/me': { tag: 'Session', summary: 'The signed-in user', operationId: 'me' },
  'GET /api/v1/logout': { tag: 'Session', summary: 'Sign out (GET)', operationId: 'logoutGet' },
  'POST /api/v1/logout': { tag: 'Session', summary: 'Sign out', operationId: 'logout' },
  'GET /api/v1/sessions/list': {
    tag: 'Sessions',
    summary: "The caller's sessions",
    operationId: 'sessionsList',
  },
  'GET /api/v1/sessions/info': {
    tag: 'Sessions',
    summary: 'One of the caller’s sessions',
    operationId: 'sessionsInfo',
  },
  'POST /api/v1/sessions/logout.me': {
    tag: 'Sessions',
    summary: 'End one of the caller’s sessions',
    operationId: 'sessionsLogoutMe',
  },
  'POST /api/v1/users.logoutOtherClients': {
    tag: 'Sessions',
    summary: 'End every other session and get a fresh token',
    operationId: 'usersLogoutOtherClients',
  },
  'POST /api/v1/users.removeOtherTokens': {
    tag: 'Sessions',
    summary: 'End every other session',
    operationId: 'usersRemoveOtherTokens',
  },
  'POST /api/v1/users.logout': {
    tag: 'Sessions',
    summary: 'End every session of the caller (or, for an admin, of a user)',
    operationId: 'usersLogout',
  },
  'GET /api/v1/sessions/list.all': {
    tag: 'Sessions',
    summary: 'Every session (admins)',
    operationId: 'sessionsListAll',
  },
  'POST /api/v1/sessions/logout': {
    tag: 'Sessions',
    summary: 'End any session (admins)',
    operationId: 'sessionsLogout',
  },
  'POST /api/v1/users.2fa.enableTOTP': {
    tag: 'Two-factor',
    summary: 'Start enabling TOTP: a new secret',
    operationId: 'enableTotp',
  },
  'POST /api/v1/users.2fa.confirmTOTP': {
    tag: 'Two-factor',
    summary: 'Confirm TOTP with a code: the backup codes',
    operationId: 'confirmTotp',
  },
  'POST /api/v1/users.2fa.disableTOTP': {
    tag: 'Two-factor',
    summary: 'Disable TOTP',
    operationId: 'disableTotp',
  },
  'GET /api/info': { tag: 'Public', summary: 'Server version', operationId: 'info' },
  'GET /api/v1/settings.oauth': {
    tag: 'Public',
    summary: 'The sign-in services offered',
    operationId: 'settingsOauth',
  },
  'GET /avatar/{username}': {
    tag: 'Public',
    summary: "A user's picture (a redirect, or initials as SVG)",
    operationId: 'avatar',
    responses: {
      '200': {
        description: "The user's initials, when no picture on an allowed host is known.",
        content: { 'image/svg+xml': { schema: { type: 'string' } } },
      },
      '302': {
        description: "The user's picture, at the provider (a host in the service's `avatarHosts`).",
        headers: {
          Location: {
            description: "The picture's URL.",
            schema: { type: 'string', format: 'uri' },
          },
        },
      },
    },
  },
  'GET /health': { tag: 'Public', summary: 'Liveness', operationId: 'health' },
};

/**
 * Left out of the document: the OAuth redirect flow's pages (`/_oauth/*`) and the scripts they
 * load (`/packages/oauth/*`) are HTML and JavaScript for a browser window opened by a Rocket.Chat
 * client, not API calls (README, "OAuth redirect"); and `GET|PUT|PATCH|DELETE /api/v1/login`,
 * which only ever answers 405 naming POST.
 */
function hidden(method: string, url: string): boolean {
  return (
    url.startsWith('/_oauth/') ||
    url.startsWith('/packages/oauth/') ||
    (url === '/api/v1/login' && method !== 'POST')
  );
}

const ERROR_SCHEMA = {
  type: 'object',
  required: ['status', 'error', 'message'],
  properties: {
    status: { type: 'string', enum: ['error'] },
    error: { type: 'string', description: 'A stable code (README, "Errors").' },
    message: { type: 'string' },
    details: { type: 'object', description: 'Extra facts some errors carry (two-factor).' },
  },
};
const ERROR_RESPONSE = {
  description: 'Every error, in one shape: `{"status": "error", "error": <code>, "message"}`.',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
};

interface Operation {
  tags?: string[];
  summary?: string;
  operationId?: string;
  responses?: Record<string, unknown>;
}

/**
 * Each operation gets its words from OPERATIONS (here, once per method: @fastify/swagger gives a
 * route's methods one shared schema), and its 4XX and 5XX answers point to one Error schema.
 */
function describeOperations(paths: unknown): void {
  for (const [path, item] of Object.entries(
    (paths ?? {}) as Record<string, Record<string, Operation>>,
  )) {
    for (const [method, operation] of Object.entries(item)) {
      const text = OPERATIONS[`${method.toUpperCase()} ${path}`];
      if (!text) throw new Error(`The API description has no words for ${method} ${path}`);
      item[method] = {
        ...operation,
        tags: [text.tag],
        summary: text.summary,
        operationId: text.operationId,
        responses: {
          ...operation.responses,
          ...text.responses,
          '4XX': ERROR_RESPONSE,
          '5XX': ERROR_RESPONSE,
        },
      };
    }
  }
}

interface OpenApiDocument {
  paths?: unknown;
  components?: Record<string, unknown> & { schemas?: Record<string, unknown> };
}

/**
 * The OpenAPI 3.1 document of the whole service, generated by @fastify/swagger from the same
 * route schemas that validate requests (so it must be registered before the routes), served at
 * GET /api/v1/openapi.json, with the Swagger UI at /api/v1/docs/. Both are public.
 */
export const openApi = fp<{ rootUrl: string; version: string }>(
  async (app: FastifyInstance, { rootUrl, version }) => {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Chat login service',
          version,
          description:
            "Rocket.Chat's REST login with credentials from external identity providers, and the " +
            'session calls around it. Signed-in calls send `X-User-Id` and `X-Auth-Token` (the ' +
            '`userId` and `authToken` a login answers).',
          license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        },
        servers: [{ url: rootUrl.replace(/\/+$/, '') }],
        tags: [...TAGS],
        components: {
          securitySchemes: {
            userId: { type: 'apiKey', in: 'header', name: 'X-User-Id' },
            authToken: { type: 'apiKey', in: 'header', name: 'X-Auth-Token' },
          },
        },
        security: [{ userId: [], authToken: [] }],
      },
      transform: ({ schema, url, route }) => {
        const methods = [route.method].flat();
        const method = methods.find((name) => name !== 'HEAD') ?? 'GET';
        const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
        if (schema?.hide || hidden(method, path)) return { schema: { ...schema, hide: true }, url };
        const isPublic = route.config?.auth === 'public';
        return { schema: isPublic ? { ...schema, security: [] } : schema, url };
      },
      transformObject: (documentObject) => {
        const document = structuredClone(
          (documentObject as { openapiObject: OpenApiDocument }).openapiObject,
        );
        describeOperations(document.paths);
        document.components = {
          ...document.components,
          schemas: { ...document.components?.schemas, Error: ERROR_SCHEMA },
        };
        return document as ReturnType<SwaggerTransformObject>;
      },
    });
    await app.register(documentationRoutes);
  },
  { name: 'openapi' },
);

/** In its own encapsulated context, so that what it sets stays on these routes. */
const documentationRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, auth: 'public' };
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    // The UI's own policy on its routes only; no other route is touched. Scripts stay limited to
    // its own files and hashes. Changed from the UI's default: no upgrade-insecure-requests (it
    // would send a browser on plain HTTP to https:// for the UI's own assets), and styles may be
    // inline (the UI renders style attributes as markup, which a browser blocks otherwise; a
    // style cannot run code) but come from nowhere else (no `https:`).
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace(/\s*upgrade-insecure-requests;?/, '')
        .replace(/style-src [^;]*;/, "style-src 'self' 'unsafe-inline';"),
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
};
