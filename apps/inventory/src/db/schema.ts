import type { Generated } from 'kysely';
import type { Role } from '../auth/roles.js';

/**
 * Kysely types of the tables that code addresses by name. The inventory resources are reached
 * through their definitions (resources/) and typed as rows there.
 */
export interface UsersTable {
  id: string;
  username: string;
  email: string;
  role: Role;
  inactive_status: Generated<boolean>;
  password_hash: string;
  password_changed_at: Generated<Date>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface AuditLogsTable {
  id: string;
  user_id: string | null;
  username: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  changes: unknown;
  request_id: string | null;
  client_ip: string | null;
  created_at: Generated<Date>;
}

export interface Database {
  users: UsersTable;
  audit_logs: AuditLogsTable;
}

export const MIGRATIONS_FOLDER = new URL('./migrations/', import.meta.url);
