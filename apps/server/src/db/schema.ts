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

/** One file or folder. Root folders have parent_id ''; root_id names the root (itself for a root). */
export interface NodesTable {
  id: string;
  parent_id: string;
  root_id: string;
  name: string;
  folder: number;
  size: number;
  mtime: string;
  content_hash: string | null;
  blob_key: string | null;
  /** server or cloud: where the contents live (set on roots, copied to descendants). */
  backend: string;
  owner_id: string | null;
  description: string;
  lock: number;
  /** Root folders: the volume limit in bytes (null: unlimited). */
  volume_limit: number | null;
  /** Root folders: bytes used by live and trashed files, kept incrementally. */
  usage_bytes: number;
  /** '' while live; the node's own id once trashed. */
  trash_key: string;
  trashed_at: string | null;
  trashed_by: string | null;
  original_parent_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface BlobsTable {
  backend: string;
  hash: string;
  size: number;
  ref_count: number;
  created_at: string;
}

export interface UploadSessionsTable {
  id: string;
  user_id: string;
  parent_id: string;
  file_name: string;
  file_size: number;
  total_chunks: number;
  backend: string;
  created_at: string;
  updated_at: string;
}

export interface UploadChunksTable {
  session_id: string;
  idx: number;
  size: number;
  created_at: string;
  /** Random per write of the chunk ('' for chunks recorded before migration 0006). */
  token: Generated<string>;
}

export interface StarsTable {
  user_id: string;
  node_id: string;
  created_at: string;
}

export interface RecentsTable {
  user_id: string;
  node_id: string;
  used_at: string;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  /** May hold simple markup, sanitised when stored. */
  message: string;
  level: number;
  read: number;
  created_at: string;
}

export interface NoticesTable {
  id: string;
  title: string;
  content: string;
  creator_id: string | null;
  creator_name: string;
  created_at: string;
}

/** A background task (upload, sync, snapshot, restore) and its progress; shared by every process. */
export interface TasksTable {
  id: string;
  type: string;
  owner_id: string;
  name: string;
  status: string;
  /** 0–100, or null while the amount of work is unknown. */
  progress: number | null;
  size: number;
  extension: string;
  client_path: string;
  snapshot_id: string | null;
  restore_id: string | null;
  created_at: string;
  updated_at: string;
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
  nodes: NodesTable;
  blobs: BlobsTable;
  upload_sessions: UploadSessionsTable;
  upload_chunks: UploadChunksTable;
  stars: StarsTable;
  recents: RecentsTable;
  notifications: NotificationsTable;
  notices: NoticesTable;
  tasks: TasksTable;
}

export type { Generated };
