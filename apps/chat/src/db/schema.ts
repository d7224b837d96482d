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
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface SessionsTable {
  token_hash: string;
  user_id: string;
  seq: ColumnType<number, never, never>;
  created_at: ColumnType<Date, Date, never>;
  expires_at: Date;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
}

export const MIGRATIONS = new URL('./migrations/', import.meta.url);
