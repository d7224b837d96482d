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

export type AuditAction = 'create' | 'replace' | 'update' | 'delete';

export interface AuditEntry {
  action: AuditAction;
  resourceType: string;
  resourceId: string;
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
