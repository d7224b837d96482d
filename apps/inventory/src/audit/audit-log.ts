import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type { AnyDatabase } from '../resources/repository.js';

/** Who did it, from where: taken from the authenticated request. */
export interface Actor {
  userId: string | null;
  username: string | null;
  requestId: string;
  clientIp: string;
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
  };
}

/**
 * Every mutation goes through here: the work and its audit rows share one transaction, so either
 * both are stored or neither, and no handler can forget the audit.
 */
export async function mutateWithAudit<T>(
  db: AnyDatabase,
  request: FastifyRequest,
  work: (trx: AnyDatabase) => Promise<{ result: T; audit: AuditEntry[] }>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const { result, audit } = await work(trx);
    await writeAuditEntries(trx, actorOf(request), audit);
    return result;
  });
}
