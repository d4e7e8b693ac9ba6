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
  /** Second factor for password sign-in: none, email or otp. */
  mfa: string;
  otp_secret: string | null;
  /** A scanned-but-unconfirmed authenticator secret. */
  otp_pending_secret: string | null;
  /** Last TOTP time step accepted: a code is accepted once. */
  otp_last_step: number;
  failed_logins: number;
  locked_until: string | null;
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

/** A signed-in device: one refresh-token family. Access tokens carry its id. */
export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: string;
  last_used_at: string;
  revoked_at: string | null;
  ip: string;
  user_agent: string;
}

export interface RefreshTokensTable {
  /** SHA-256 of the token (hex); the token itself is never stored. */
  token_hash: string;
  session_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A password sign-in waiting for its second factor; the browser holds its id in a cookie. */
export interface LoginChallengesTable {
  id: string;
  user_id: string;
  method: string;
  code_hash: string | null;
  created_at: string;
  expires_at: string;
  attempts: number;
  used_at: string | null;
}

export interface LoginThrottleTable {
  ip: string;
  failures: number;
  window_start: string;
}

export interface WebauthnCredentialsTable {
  id: string;
  user_id: string;
  public_key: string;
  counter: number;
  transports: string;
  created_at: string;
}

export interface WebauthnChallengesTable {
  id: string;
  user_id: string | null;
  challenge: string;
  purpose: string;
  expires_at: string;
}

/** The activity log: who did what, from where. */
export interface EventsTable {
  id: string;
  created_at: string;
  service: string;
  message: string;
  user_id: string | null;
  ip: string | null;
}

export interface Database {
  users: UsersTable;
  access_log: AccessLogTable;
  settings: SettingsTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  login_challenges: LoginChallengesTable;
  login_throttle: LoginThrottleTable;
  webauthn_credentials: WebauthnCredentialsTable;
  webauthn_challenges: WebauthnChallengesTable;
  events: EventsTable;
}

export type { Generated };
