import type { ColumnType, Generated } from 'kysely';

type JsonColumn<T> = ColumnType<T, string | undefined, string>;

export interface UsersTable {
  id: string;
  service: string;
  provider_user_id: string;
  username: string;
  name: string;
  email: string | null;
  email_verified: boolean;
  avatar_url: string | null;
  utc_offset: number;
  status: Generated<string>;
  status_connection: Generated<string>;
  active: Generated<boolean>;
  roles: JsonColumn<string[]>;
  preferences: JsonColumn<Record<string, unknown>>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface SessionsTable {
  token_hash: string;
  user_id: string;
  seq: ColumnType<number, never, never>;
  created_at: ColumnType<Date, Date, never>;
  expires_at: Date;
  /** The public session id (`sessionId`): what lists and revocations name instead of the token. */
  id: ColumnType<string, never, never>;
  last_used_at: ColumnType<Date, Date, Date>;
  client_address: string | null;
  user_agent: string | null;
}

export interface TwoFactorTable {
  user_id: string;
  secret_ciphertext: string;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  backup_codes: JsonColumn<string[]>;
  last_used_step: ColumnType<string | number, number | undefined, number>;
  created_at: ColumnType<Date, Date | undefined, never>;
  enabled_at: Date | null;
}

export interface UsedIdTokensTable {
  token_key: string;
  expires_at: Date;
}

export interface OAuthPendingCredentialsTable {
  credential_token: string;
  service: string;
  code_verifier: string | null;
  started_at: Date;
  expires_at: Date;
  returned_at: Date | null;
  secret_hash: string | null;
  identity: ColumnType<unknown, string | null | undefined, string | null>;
  consumed_at: Date | null;
  browser_hash: string | null;
  nonce: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  two_factor: TwoFactorTable;
  used_id_tokens: UsedIdTokensTable;
  oauth_pending_credentials: OAuthPendingCredentialsTable;
}

export const MIGRATIONS = new URL('./migrations/', import.meta.url);
