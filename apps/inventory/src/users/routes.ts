import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { type AuditEntry, mutateWithAudit } from '../audit/audit-log.js';
import type { PasswordHasher } from '../auth/passwords.js';
import type { AnyDatabase } from '../db/schema.js';
import { ApiError, forbidden, notFound } from '../errors.js';
import { withDefaults } from '../resources/definition.js';
import { type ListQuery, sendListPage } from '../resources/pages.js';
import { findRow, type Row } from '../resources/rows.js';
import {
  fullRecordSchema,
  IdParams,
  listQuerySchema,
  NoContent,
  pageSchema,
  partialRecordSchema,
  recordSchema,
  responses,
  SuccessMessage,
} from '../resources/schemas.js';
import { deleteRow, insertRow, updateRow } from '../resources/writes.js';
import { ADMIN_ONLY_FIELDS, NAME_CHANGE_BUDGET, PasswordSchema, users } from './definition.js';
import { spendBudgets } from './throttle.js';

export interface UserRoutesOptions {
  db: AnyDatabase;
  hasher: PasswordHasher;
}

const adminOnly = { access: ['admin'] } as const;
const userRecord = recordSchema(users);
const ownerOrAdmin = { access: { ownerOr: ['admin'] } } as const;

export const TOO_MANY_NAME_CHANGES =
  'Too many attempts to change the username or e-mail address; try again later';

const entry = (action: AuditEntry['action'], id: string, changes: Row | null): AuditEntry => ({
  action,
  resourceType: users.name,
  // As PostgreSQL writes uuids: a change made through `/users/{ID}` is found by the stored id.
  resourceId: id.toLowerCase(),
  changes,
});

/**
 * The user lifecycle: admins create and list accounts; a user reads, changes and deletes their
 * own account (admins anyone's), but only an admin changes a role or `inactive_status`.
 * Changing a password ends the user's earlier tokens (see auth/guard.ts).
 */
export const userRoutes: FastifyPluginAsyncTypebox<UserRoutesOptions> = async (
  app,
  { db, hasher },
) => {
  const existingUser = async (id: string, from: AnyDatabase = db) => {
    const row = await findRow(from, users, id);
    if (!row) throw notFound(users.notFoundMessage);
    return row;
  };

  app.get(
    '/users',
    {
      config: adminOnly,
      schema: {
        querystring: listQuerySchema(users),
        response: responses({ 200: pageSchema(users) }),
      },
    },
    async (request, reply) => sendListPage(request, reply, db, users, request.query as ListQuery),
  );

  app.post(
    '/users',
    {
      config: adminOnly,
      schema: {
        body: fullRecordSchema(users, { password: PasswordSchema }),
        response: responses({ 201: userRecord }),
      },
    },
    async (request, reply) => {
      const { password, ...given } = request.body as Row & { password: string };
      const fields = withDefaults(users, given);
      const passwordHash = await hasher.hash(password);
      const created = await mutateWithAudit(db, request, async (trx) => {
        const row = await insertRow(trx, users, { ...fields, password_hash: passwordHash });
        return { result: row, audit: [entry('create', String(row.id), fields)] };
      });
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/users/:id',
    {
      config: ownerOrAdmin,
      schema: { params: IdParams, response: responses({ 200: userRecord }) },
    },
    async (request) => existingUser(request.params.id),
  );

  // PUT changes the fields sent (a user record is never "replaced": its password and history
  // stay), so an owner may send their record back with role and status unchanged.
  app.put(
    '/users/:id',
    {
      config: ownerOrAdmin,
      schema: {
        params: IdParams,
        body: partialRecordSchema(users),
        response: responses({ 200: userRecord }),
      },
    },
    async (request) => {
      const { id } = request.params;
      const fields = request.body as Row;
      const actor = request.user;
      const isAdmin = actor?.role === 'admin';
      if (!isAdmin) await spendNameChange(id, fields);
      // What the caller may write: an owner never writes role or status, not even their current
      // values (writing them back would undo a demotion that commits meanwhile).
      const writable = isAdmin
        ? fields
        : Object.fromEntries(
            Object.entries(fields).filter(
              ([field]) => !(ADMIN_ONLY_FIELDS as readonly string[]).includes(field),
            ),
          );
      return mutateWithAudit(db, request, async (trx) => {
        // The checks read the row locked, in the transaction that writes it.
        const current = await trx
          .selectFrom('users')
          .select(['role', 'inactive_status'])
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        if (!current) throw notFound(users.notFoundMessage);
        if (!isAdmin) {
          const changesAdminField = ADMIN_ONLY_FIELDS.some(
            (field) => field in fields && fields[field] !== current[field],
          );
          if (changesAdminField) throw forbidden();
        } else if (ADMIN_ONLY_FIELDS.some((field) => field in fields)) {
          // An admin demoted or deactivated while this request ran no longer changes roles.
          const stillAdmin = await trx
            .selectFrom('users')
            .select('id')
            .where('id', '=', actor?.id ?? '')
            .where('role', '=', 'admin')
            .where('inactive_status', '=', false)
            .forShare()
            .executeTakeFirst();
          if (!stillAdmin) throw forbidden();
        }
        if (Object.keys(writable).length === 0) {
          return { result: await existingUser(id, trx), audit: [] };
        }
        const row = await updateRow(trx, users, id, writable);
        if (!row) throw notFound(users.notFoundMessage);
        return { result: row, audit: [entry('update', id, writable)] };
      });
    },
  );

  /**
   * A non-admin learns that a username or e-mail address is taken from the 409 an attempt to
   * take it gets, as an admin does; what keeps that from being a directory of accounts is a
   * budget: NAME_CHANGE_BUDGET attempts per account and hour at a username or address other
   * than their own, whatever the outcome. Once spent, every such attempt is 429, free names
   * included (429 for taken names alone would answer the question just the same).
   */
  const spendNameChange = async (id: string, fields: Row) => {
    const current = await existingUser(id);
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

  app.delete(
    '/users/:id',
    { config: ownerOrAdmin, schema: { params: IdParams, response: responses({ 204: NoContent }) } },
    async (request, reply) => {
      const { id } = request.params;
      await mutateWithAudit(db, request, async (trx) => {
        await deleteRow(trx, users, id);
        return { result: undefined, audit: [entry('delete', id, null)] };
      });
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/users/:id/password',
    {
      config: ownerOrAdmin,
      schema: {
        params: IdParams,
        body: Type.Object({ new_password: PasswordSchema }, { additionalProperties: false }),
        response: responses({ 200: SuccessMessage }),
      },
    },
    async (request) => {
      const { id } = request.params;
      const passwordHash = await hasher.hash(request.body.new_password);
      await mutateWithAudit(db, request, async (trx) => {
        const row = await updateRow(trx, users, id, {
          password_hash: passwordHash,
          password_changed_at: sql`now()`,
        });
        if (!row) throw notFound(users.notFoundMessage);
        // Which field changed, never its value.
        return { result: row, audit: [entry('update', id, { password: '***' })] };
      });
      return { status: 'success' as const, message: 'Password changed' };
    },
  );
};
