import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { type AuditEntry, mutateWithAudit } from '../audit/audit-log.js';
import type { AnyDatabase } from '../db/schema.js';
import { badRequest, notFound } from '../errors.js';
import type { ResourceDefinition } from '../resources/definition.js';
import { text, timestamp } from '../resources/definition.js';
import { type ListQuery, sendListPage } from '../resources/pages.js';
import { findRow, type Row } from '../resources/rows.js';
import {
  IdParams,
  listQuerySchema,
  NoContent,
  pageSchema,
  recordSchema,
  responses,
} from '../resources/schemas.js';
import { deleteRow, insertRow } from '../resources/writes.js';
import { API_TOKEN_SCOPES, type ApiTokenService } from './api-tokens.js';

/** One or more of the scopes, each at most once. */
const ScopesSchema = Type.Array(Type.Union(API_TOKEN_SCOPES.map((scope) => Type.Literal(scope))), {
  minItems: 1,
  maxItems: API_TOKEN_SCOPES.length,
  uniqueItems: true,
});

/**
 * API tokens as a resource: the generic list (filters, sort, paging), reads and the SQL come
 * from the definition; the routes are their own, as a token is minted by the service (never
 * sent by the client), shown once, and never changed (revoke it and create another). The hash
 * is not a declared column, so no query of the mechanism ever selects it.
 */
export const apiTokens: ResourceDefinition = {
  name: 'api-tokens',
  table: 'api_tokens',
  notFoundMessage: 'API token not found',
  writeRoles: ['admin'],
  systemColumns: ['id', 'created_at'],
  columns: {
    name: text({ required: true, filterable: true, sortable: true, maxLength: 100 }),
    scopes: { schema: ScopesSchema, required: true },
    /** `nit_` and the next 8 characters: enough to tell tokens apart, useless to an attacker. */
    token_prefix: { schema: Type.String(), required: true },
    /** The admin who created it (kept when that account is deleted). */
    created_by: { schema: Type.String({ format: 'uuid' }) },
    expires_at: timestamp(),
    last_used_at: timestamp(),
  },
};

const CreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    scopes: ScopesSchema,
    expires_at: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
  },
  { additionalProperties: false },
);

const record = recordSchema(apiTokens);
const Created = Type.Object({
  ...record.properties,
  token: Type.String({ description: 'The token itself: shown in this answer only' }),
});

const adminOnly = { access: ['admin'] } as const;

const entry = (action: AuditEntry['action'], id: string, changes: Row | null): AuditEntry => ({
  action,
  resourceType: apiTokens.name,
  resourceId: id.toLowerCase(),
  changes,
});

export const apiTokenRoutes: FastifyPluginAsyncTypebox<{
  db: AnyDatabase;
  service: ApiTokenService;
}> = async (app, { db, service }) => {
  app.get(
    '/api-tokens',
    {
      config: adminOnly,
      schema: {
        summary: 'List API tokens (admin; never the tokens themselves)',
        querystring: listQuerySchema(apiTokens),
        response: responses({ 200: pageSchema(apiTokens) }),
      },
    },
    async (request, reply) =>
      sendListPage(request, reply, db, apiTokens, request.query as ListQuery),
  );

  app.post(
    '/api-tokens',
    {
      config: adminOnly,
      schema: {
        summary: 'Create an API token (admin); the answer is the only time the token is shown',
        body: CreateBody,
        response: responses({ 201: Created }),
      },
    },
    async (request, reply) => {
      const { name, scopes, expires_at: expiresAt = null } = request.body;
      if (expiresAt !== null && !(Date.parse(expiresAt) > Date.now())) {
        throw badRequest('expires_at must be in the future');
      }
      const { token, hash, prefix } = service.mint();
      const values = {
        name,
        scopes,
        token_prefix: prefix,
        created_by: request.user?.id ?? null,
        expires_at: expiresAt,
      };
      const row = await mutateWithAudit(db, request, async (trx) => {
        const created = await insertRow(trx, apiTokens, {
          ...values,
          scopes: sql`${scopes}::text[]`,
          token_hash: hash,
        });
        // What was created, never the token or its hash.
        return { result: created, audit: [entry('create', String(created.id), values)] };
      });
      return reply.status(201).send({ ...row, token });
    },
  );

  app.get(
    '/api-tokens/:id',
    {
      config: adminOnly,
      schema: {
        summary: 'Read an API token (admin; never the token itself)',
        params: IdParams,
        response: responses({ 200: record }),
      },
    },
    async (request) => {
      const row = await findRow(db, apiTokens, request.params.id);
      if (!row) throw notFound(apiTokens.notFoundMessage);
      return row;
    },
  );

  app.delete(
    '/api-tokens/:id',
    {
      config: adminOnly,
      schema: {
        summary: 'Revoke an API token (admin): it stops working at once, on every instance',
        params: IdParams,
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await mutateWithAudit(db, request, async (trx) => {
        await deleteRow(trx, apiTokens, id);
        return { result: undefined, audit: [entry('delete', id, null)] };
      });
      return reply.status(204).send(null);
    },
  );
};
