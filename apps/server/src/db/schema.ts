import type { Generated } from 'kysely';

/**
 * Table types as Kysely sees them. Portable across SQLite and PostgreSQL: times are
 * ISO-8601 text in UTC (sortable), flags are integers 0/1, ids are UUIDv7 text.
 */
export interface UsersTable {
  id: string;
  name: string;
  email: string;
  description: string;
  role: string;
  role_level: number;
  status: string;
  approved: number;
  provider: string;
  password_hash: string | null;
  profile_image: string | null;
  last_login: string | null;
  /** Access tokens carry the version they were issued under; bumping it (logout, password change) refuses them all. */
  token_version: number;
  created_at: string;
  updated_at: string;
}

export interface AccessLogTable {
  id: string;
  created_at: string;
  ip: string;
  method: string;
  url: string;
  status: number;
  response_time_ms: number;
  content_length: number | null;
  user_agent: string;
  user_id: string | null;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface Database {
  users: UsersTable;
  access_log: AccessLogTable;
  settings: SettingsTable;
}

export type { Generated };
