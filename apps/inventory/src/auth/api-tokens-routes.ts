import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { AnyDatabase } from '../db/schema.js';
import { badRequest } from '../errors.js';
import type { ResourceDefinition, WriteHooks } from '../resources/definition.js';
import { text, timestamp } from '../resources/definition.js';
import { resourceRoutes } from '../resources/routes.js';
import { API_TOKEN_SCOPES, type ApiTokenService } from './api-tokens.js';

/** One or more of the scopes, each at most once. */
const ScopesSchema = Type.Array(Type.Union(API_TOKEN_SCOPES.map((scope) => Type.Literal(scope))), {
  minItems: 1,
  maxItems: API_TOKEN_SCOPES.length,
  uniqueItems: true,
});

/**
 * API tokens as a resource (admins only): the generic list (filters, sort, paging), reads,
 * creates and deletes. A token is minted by the service (never sent by the client), shown once
 * in the create's answer, and never changed (revoke it and create another): its hooks are
 * below. The hash is a hidden column, so no query of the mechanism ever selects it.
 */
export const apiTokens: ResourceDefinition = {
  name: 'api-tokens',
  table: 'api_tokens',
  notFoundMessage: 'API token not found',
  label: { singular: 'API token', plural: 'API tokens' },
  writeRoles: ['admin'],
  readRoles: ['admin'],
  operations: ['list', 'read', 'create', 'delete'],
  systemColumns: ['id', 'created_at'],
  columns: {
    name: text({
      identifier: true,
      required: true,
      filterable: true,
      sortable: true,
      maxLength: 100,
    }),
    scopes: { schema: ScopesSchema, kind: 'list', required: true },
    /** `nit_` and the next 8 characters: enough to tell tokens apart, useless to an attacker. */
    token_prefix: { schema: Type.String(), required: true, readOnly: true },
    /** The admin who created it (kept when that account is deleted). */
    created_by: { schema: Type.String({ format: 'uuid' }), readOnly: true },
    expires_at: timestamp(),
    last_used_at: timestamp({ readOnly: true }),
  },
  hiddenColumns: ['token_hash'],
  createdFields: {
    token: Type.String({ description: 'The token itself: shown in this answer only' }),
  },
  summaries: {
    list: 'List API tokens (admin; never the tokens themselves)',
    create: 'Create an API token (admin); the answer is the only time the token is shown',
    read: 'Read an API token (admin; never the token itself)',
    delete: 'Revoke an API token (admin): it stops working at once, on every instance',
  },
};

/** A create mints the token, stores its hash and answers it once; nothing else keeps it. */
export function apiTokenHooks(service: ApiTokenService): WriteHooks {
  return {
    beforeWrite({ operation, request, values }) {
      if (operation !== 'create') return { values };
      const expiresAt = values.expires_at;
      if (typeof expiresAt === 'string' && !(Date.parse(expiresAt) > Date.now())) {
        throw badRequest('expires_at must be in the future');
      }
      const { token, hash, prefix } = service.mint();
      return {
        values: {
          ...values,
          token_prefix: prefix,
          token_hash: hash,
          created_by: request.user?.id ?? null,
        },
        carried: token,
      };
    },
    afterWrite({ operation, row, carried }) {
      return operation === 'create' && row ? { ...row, token: carried } : undefined;
    },
  };
}

export const apiTokenRoutes: FastifyPluginAsync<{
  db: AnyDatabase;
  service: ApiTokenService;
}> = async (app, { db, service }) => {
  await app.register(resourceRoutes, {
    prefix: '/api-tokens',
    definition: { ...apiTokens, hooks: apiTokenHooks(service) },
    db,
  });
};
