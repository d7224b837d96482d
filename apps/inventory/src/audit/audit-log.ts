import { writesFirst } from '@netops/store';
import type { FastifyRequest } from 'fastify';
import { type RawBuilder, sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type { Principal } from '../auth/guard.js';
import { retryOnConflict } from '../db/retry.js';
import type { AnyDatabase } from '../db/schema.js';
import { type ParameterOf, statementTemplate } from '../db/statement-template.js';

/** Who did it, from where: taken from the authenticated request. */
export interface Actor {
  userId: string | null;
  username: string | null;
  requestId: string;
  clientIp: string;
  /**
   * The identity the request was admitted as, checked again by the write (migration 020); none
   * for the command line and sign-ins.
   */
  principal?: Principal | null;
}

/** Changes to records, and the account events that matter as much (sign-ins and their failures). */
export const AUDIT_ACTIONS = [
  'create',
  'replace',
  'update',
  'delete',
  'login',
  'login_failed',
  'logout',
  'password_reset',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  action: AuditAction;
  resourceType: string;
  /** Null when there is no record, e.g. a failed login with an unknown name. */
  resourceId: string | null;
  /** Field names and the values written; null for a delete. */
  changes: Record<string, unknown> | null;
}

/** Field names whose values never enter the trail. */
const SECRET_FIELDS = new Set(['password', 'password_hash', 'new_password']);

function redact(changes: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!changes) return null;
  return Object.fromEntries(
    Object.entries(changes).map(([key, value]) => [key, SECRET_FIELDS.has(key) ? '***' : value]),
  );
}

/**
 * Writes the entries with the caller's transaction, so a mutation and its audit rows commit or
 * roll back together. One statement however many entries a batch produced.
 */
export async function writeAuditEntries(
  trx: AnyDatabase,
  actor: Actor,
  entries: readonly AuditEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  await trx
    .insertInto('audit_logs')
    .values(
      entries.map((entry) => ({
        id: uuidv7(),
        user_id: actor.userId,
        username: actor.username,
        action: entry.action,
        resource_type: entry.resourceType,
        resource_id: entry.resourceId,
        changes: entry.changes ? sql`${JSON.stringify(redact(entry.changes))}::jsonb` : null,
        request_id: actor.requestId,
        client_ip: actor.clientIp,
      })),
    )
    .execute();
}

export function actorOf(request: FastifyRequest): Actor {
  return {
    userId: request.user?.id ?? null,
    username: request.user?.username ?? null,
    requestId: String(request.id),
    clientIp: request.ip,
    principal: request.principal,
  };
}

/**
 * Checks, as the first statement of a transaction, that the identity the request was admitted as
 * is still valid, and keeps the rows it read locked until the transaction ends (migration 020):
 * for flows of several statements. Single statements are checked by the tables' triggers.
 */
export async function requirePrincipal(trx: AnyDatabase, request: FastifyRequest): Promise<void> {
  if (request.principal === null) return;
  await sql`SELECT inventory_require_principal(${JSON.stringify(request.principal)}::jsonb)`.execute(
    trx,
  );
}

/**
 * A multi-step account flow (a password change or reset) in one transaction: it names who
 * writes, so the tables' triggers (migration 012) audit the records it changes, and writes the
 * entries it answers that are not record changes (a password reset) with it, so both are stored
 * or neither. The account it changed is forgotten by this instance's user cache once committed.
 * Single-record writes go through the resource routes instead (resources/routes.ts).
 */
export async function runAccountFlow<T>(
  db: AnyDatabase,
  request: FastifyRequest,
  work: (trx: AnyDatabase) => Promise<{ result: T; account: string; audit?: AuditEntry[] }>,
): Promise<T> {
  const actor = actorOf(request);
  // A deadlock victim is run again whole (the work too): nothing of it was kept.
  const { result, account } = await retryOnConflict(() =>
    db.transaction().execute(async (trx) => {
      await requirePrincipal(trx, request);
      await sql`SELECT set_config('inventory.actor', ${actorSetting(actor, { resourceType: '', action: 'update' })}, true)`.execute(
        trx,
      );
      const outcome = await work(trx);
      await writeAuditEntries(trx, actor, outcome.audit ?? []);
      return outcome;
    }),
  );
  forgetChangedAccount(request, account);
  return result;
}

/**
 * A write of one or many rows, described as parts of one SQL statement (see resources/writes.ts):
 * PostgreSQL runs a statement as a transaction of its own, so the rows and their audit rows are
 * stored together or not at all, in one round trip instead of BEGIN, the write, the audit
 * INSERT and COMMIT. Its text is compiled once per shape (db/statement-template.ts).
 *
 * The audit rows are written by the tables' triggers (migration 012), which also see the rows a
 * foreign key's action changes; the statement only tells them who is writing (`inventory.actor`).
 */
export interface StatementWrite {
  /** What decides the statement's text (the table, the fields written); unique per builder. */
  shape: string;
  /** The statement's parts, with `param(name)` wherever a value goes. */
  parts(param: ParameterOf): {
    /**
     * Top-level common table expressions, each `name AS (...)`, that write (INSERT, UPDATE or
     * DELETE ... RETURNING): PostgreSQL runs each exactly once, whether read or not.
     */
    steps: RawBuilder<unknown>[];
    /**
     * The statement's answer: at least one row whenever anything was written (the actor is set
     * while it is read, see writeWithAudit).
     */
    result: RawBuilder<unknown>;
  };
  /** The value of each parameter the parts name. */
  values: Record<string, unknown>;
}

/** The record a request names, and what it does to it (a PUT replaces, a PATCH updates). */
export interface WriteIntent {
  resourceType: string;
  action: Extract<AuditAction, 'create' | 'replace' | 'update' | 'delete'>;
}

/**
 * What the audit triggers of migration 012 read from `inventory.actor`: who writes, and the
 * resource and action the request names ('replace' is told from 'update' by it).
 */
export function actorSetting(actor: Actor, intent: WriteIntent): string {
  return JSON.stringify({
    user_id: actor.userId,
    username: actor.username,
    request_id: actor.requestId,
    client_ip: actor.clientIp,
    resource: intent.resourceType,
    action: intent.action,
    principal: actor.principal ?? null,
  });
}

/**
 * Runs `write` as one statement, with the actor set for the statement's transaction alone
 * (`set_config(..., true)`). It is set while the answer is read; the AFTER triggers that write
 * the audit rows, and the foreign keys' actions with theirs, fire when the statement ends, after
 * that. An answer with no row means nothing was written, so there is nothing to audit.
 */
export function writeWithAudit<R>(
  db: AnyDatabase,
  request: FastifyRequest,
  write: StatementWrite,
  intent: WriteIntent,
): Promise<R[]> {
  return writeAsActor<R>(db, write, 'audited', actorSetting(actorOf(request), intent));
}

/**
 * Runs `write` as one statement for a table that is not audited: only the identity the request
 * was admitted as is set, for the table's check (migration 020).
 */
export function writeUnaudited<R>(
  db: AnyDatabase,
  request: FastifyRequest,
  write: StatementWrite,
): Promise<R[]> {
  return writeAsActor<R>(db, write, 'unaudited', JSON.stringify({ principal: request.principal }));
}

/** `write` as one statement with `inventory.actor` set to `actor` for its transaction alone. */
async function writeAsActor<R>(
  db: AnyDatabase,
  write: StatementWrite,
  kind: 'audited' | 'unaudited',
  actor: string,
): Promise<R[]> {
  const template = statementTemplate(db, JSON.stringify([kind, write.shape]), (param) => {
    const { steps, result } = write.parts(param);
    return sql`
    WITH ${sql.join(steps)}
    SELECT answer__.* FROM (${result}) AS answer__
    WHERE set_config('inventory.actor', ${param('audit:actor')}, true) IS NOT NULL`;
  });
  const statement = template.bind({ ...write.values, 'audit:actor': actor });
  // A write waits for a connection ahead of the reads (writesFirst in the store).
  const result = await retryOnConflict(() => writesFirst(db).executeQuery<R>(statement));
  return result.rows;
}

/**
 * An account changed through the API is forgotten by this instance's user cache as soon as the
 * change is committed, before the response: the notification that tells every instance arrives
 * a moment later, and the client that changed it must not be answered from the old row.
 */
export function forgetChangedAccount(request: FastifyRequest, id: string): void {
  // As PostgreSQL writes uuids: the cache holds the stored id.
  request.server.userCache.forget(id.toLowerCase());
}
