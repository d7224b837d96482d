import type { Generated, Kysely } from 'kysely';
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
  /** The record before and after a change (migration 012). */
  prechange: Generated<unknown>;
  postchange: Generated<unknown>;
  request_id: string | null;
  client_ip: string | null;
  created_at: Generated<Date>;
}

export interface PasswordResetCodesTable {
  code_hash: string;
  user_id: string;
  expires_at: Date;
  created_at: Generated<Date>;
}

/** Budgets shared by every instance (migration 010): one row per counted event. */
export interface AccountThrottleTable {
  kind: string;
  subject: string;
  created_at: Generated<Date>;
}

/** Credentials of systems (migration 010; src/auth/api-tokens.ts). */
export interface ApiTokensTable {
  id: string;
  name: string;
  scopes: string[];
  token_hash: string;
  token_prefix: string;
  created_by: string | null;
  expires_at: Date | null;
  last_used_at: Date | null;
  created_at: Generated<Date>;
}

export interface Database {
  users: UsersTable;
  audit_logs: AuditLogsTable;
  password_reset_codes: PasswordResetCodesTable;
  account_throttle: AccountThrottleTable;
  api_tokens: ApiTokensTable;
}

export const MIGRATIONS_FOLDER = new URL('./migrations/', import.meta.url);

/**
 * The database as the generic side sees it: tables chosen at run time from the resources'
 * definitions (an allow-list), so by name only. Typed access to a table lives with its owner
 * (Kysely<Database>); this is the same handle.
 */
// biome-ignore lint/suspicious/noExplicitAny: tables are chosen at run time from definitions
export type AnyDatabase = Kysely<any>;
