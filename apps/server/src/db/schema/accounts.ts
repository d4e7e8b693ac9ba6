import type { Generated } from 'kysely';

// Tables of the schema (db/schema.ts): accounts, sign-in, groups and permissions.

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
  /** 1 while the account still has the system's initial password. */
  must_change_password: Generated<number>;
  /** The account's language (ko, en): its e-mails are written in it. */
  language: Generated<string>;
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

export interface GroupsTable {
  id: string;
  name: string;
  description: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface GroupMembersTable {
  group_id: string;
  user_id: string;
  created_at: string;
}

/** A folder or file with permission entries of its own. */
export interface ResourcesTable {
  id: string;
  node_id: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** One user's or group's permissions on a resource: a JSON list of permission names and a level 0-3. */
export interface ResourceEntriesTable {
  resource_id: string;
  node_id: string;
  entity_type: 'user' | 'group';
  entity_id: string;
  permissions: string;
  access: number;
}

/** One fixed window of an attempt limit: `hits` taken since `window_start` (ISO) for `key`. */
export interface AttemptCountersTable {
  key: string;
  window_start: string;
  hits: number;
}

/** A row a transaction writes first so that others needing the same lock wait until it ends. */
export interface SerialLocksTable {
  name: string;
  taken_at: string;
}

/** Avatar images (re-encoded WebP), by the random key in their public URL. */
export interface AvatarsTable {
  key: string;
  image: Buffer;
  created_at: string;
}

/** An app password (WebDAV clients): a keyed hash, found by its lookup part within the account. */
export interface AppPasswordsTable {
  id: string;
  user_id: string;
  name: string;
  /** The password's first characters: narrows the search, proves nothing alone. */
  lookup: string;
  /** HMAC-SHA-256 (hex) of the row id and the password under the server's app-password key. */
  hash: string;
  created_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
}
