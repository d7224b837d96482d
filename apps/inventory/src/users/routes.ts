import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { forgetChangedAccount, runAccountFlow } from '../audit/audit-log.js';
import type { PasswordHasher } from '../auth/passwords.js';
import type { AnyDatabase } from '../db/schema.js';
import { ApiError, forbidden, notFound } from '../errors.js';
import type { ResourceDefinition, WriteCondition, WriteHooks } from '../resources/definition.js';
import { resourceRoutes } from '../resources/routes.js';
import { findRow, type Row } from '../resources/rows.js';
import { IdParams, responses, SuccessMessage } from '../resources/schemas.js';
import { ADMIN_ONLY_FIELDS, NAME_CHANGE_BUDGET, PasswordSchema, users } from './definition.js';
import { spendBudgets } from './throttle.js';

export interface UserRoutesOptions {
  db: AnyDatabase;
  hasher: PasswordHasher;
}

export const TOO_MANY_NAME_CHANGES =
  'Too many attempts to change the username or e-mail address; try again later';

/**
 * The write is made only while its author is still an active admin, checked in the write's own
 * statement with the author's row locked: an admin demoted or deactivated while the request ran
 * no longer changes roles.
 */
const authorIsStillAdmin = (authorId: string): WriteCondition => ({
  name: 'author-is-admin',
  sql: (param) => sql<boolean>`EXISTS (
    SELECT 1 FROM users AS author__
    WHERE author__.id = ${param('author:id')}::uuid AND author__.role = 'admin'
      AND NOT author__.inactive_status
    FOR SHARE)`,
  values: { 'author:id': authorId },
  refusal: () => forbidden(),
});

/**
 * The rules of accounts as write hooks of the resource routes: a create's password is hashed;
 * a non-admin changes neither role nor `inactive_status` (not even to their current values:
 * writing them back would undo a demotion that commits meanwhile) and has a budget of name
 * changes; a changed account is forgotten by the user cache at once. Changing a password ends
 * the user's earlier tokens (see auth/guard.ts).
 */
export function accountHooks(db: AnyDatabase, hasher: PasswordHasher): WriteHooks {
  /**
   * A non-admin learns that a username or e-mail address is taken from the 409 an attempt to
   * take it gets, as an admin does; what keeps that from being a directory of accounts is a
   * budget: NAME_CHANGE_BUDGET attempts per account and hour at a username or address other
   * than their own, whatever the outcome. Once spent, every such attempt is 429, free names
   * included (429 for taken names alone would answer the question just the same).
   */
  const spendNameChange = async (id: string, fields: Row, current: Row) => {
    const differs = (field: 'username' | 'email') =>
      typeof fields[field] === 'string' &&
      (fields[field] as string).toLowerCase() !== String(current[field]).toLowerCase();
    if (!differs('username') && !differs('email')) return;
    const outcome = await spendBudgets(db, [{ budget: NAME_CHANGE_BUDGET, subject: id }]);
    if (!outcome.allowed) {
      throw new ApiError(429, TOO_MANY_NAME_CHANGES, {
        'Retry-After': String(outcome.retryAfterSeconds),
      });
    }
  };

  return {
    async beforeWrite({ operation, request, id, values }) {
      if (operation === 'create') {
        const { password, ...fields } = values;
        return { values: { ...fields, password_hash: await hasher.hash(String(password)) } };
      }
      if (operation === 'delete' || id === undefined) return { values };
      const author = request.user;
      if (author?.role === 'admin') {
        const changesAdminFields = ADMIN_ONLY_FIELDS.some((field) => field in values);
        return changesAdminFields
          ? { values, condition: authorIsStillAdmin(author.id) }
          : { values };
      }
      const current = await findRow(db, users, id);
      if (!current) throw notFound(users.notFoundMessage);
      await spendNameChange(id, values, current);
      if (ADMIN_ONLY_FIELDS.some((field) => field in values && values[field] !== current[field])) {
        throw forbidden();
      }
      const writable = Object.fromEntries(
        Object.entries(values).filter(
          ([field]) => !(ADMIN_ONLY_FIELDS as readonly string[]).includes(field),
        ),
      );
      return Object.keys(writable).length === 0
        ? { values: writable, unchanged: true }
        : { values: writable };
    },
    afterWrite({ operation, request, id }) {
      if (operation !== 'create') forgetChangedAccount(request, id);
      return undefined;
    },
  };
}

/** Accounts as a resource, with their hooks. */
export const accountResource = (db: AnyDatabase, hasher: PasswordHasher): ResourceDefinition => ({
  ...users,
  hooks: accountHooks(db, hasher),
});

/** `/users` (the resource routes) and `PUT /users/{id}/password`. */
export const userRoutes: FastifyPluginAsyncTypebox<UserRoutesOptions> = async (
  app,
  { db, hasher },
) => {
  await app.register(resourceRoutes, {
    prefix: '/users',
    definition: accountResource(db, hasher),
    db,
  });

  app.put(
    '/users/:id/password',
    {
      config: { access: { ownerOr: ['admin'] } },
      schema: {
        params: IdParams,
        body: Type.Object({ new_password: PasswordSchema }, { additionalProperties: false }),
        response: responses({ 200: SuccessMessage }),
      },
    },
    async (request) => {
      const { id } = request.params;
      const passwordHash = await hasher.hash(request.body.new_password);
      await runAccountFlow(db, request, async (trx) => {
        // The audit row names the hidden column that changed, never its values (migration 012).
        const changed = await trx
          .updateTable('users')
          .set({
            password_hash: passwordHash,
            password_changed_at: sql`clock_timestamp()`,
            updated_at: sql`clock_timestamp()`,
          })
          .where('id', '=', id)
          .returning('id')
          .executeTakeFirst();
        if (!changed) throw notFound(users.notFoundMessage);
        return { result: undefined, account: id };
      });
      return { status: 'success' as const, message: 'Password changed' };
    },
  );
};
