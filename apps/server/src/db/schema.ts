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

/**
 * The audit trail: append-only, one chain. `seq` rises by one per record (assigned under
 * the chain head's lock); `hash` is SHA-256 over the record's canonical form and `prev_hash`.
 */
export interface AuditRecordsTable {
  seq: number;
  at: string;
  actor_kind: string;
  actor_id: string | null;
  actor_account_id: string | null;
  actor_label: string | null;
  action: string;
  outcome: string;
  reason: string | null;
  target_kind: string | null;
  target_id: string | null;
  /** NFC path of a node target, for prefix search. */
  target_path: string | null;
  target_label: string | null;
  /** JSON text of a flat object. */
  params: string;
  ip: string | null;
  user_agent: string | null;
  prev_hash: string;
  hash: string;
}

/** The chain head: one row (id 'main') locked by every append. */
export interface AuditChainTable {
  id: string;
  seq: number;
  hash: string;
  /** After a retention purge: the first kept record's seq and prev_hash (where verify starts). */
  anchor_seq: number;
  anchor_hash: string;
}

/** One finished UTC day: its last record and the chain's hash there. */
export interface AuditDigestsTable {
  day: string;
  last_seq: number;
  head_hash: string;
  created_at: string;
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
  /** Root folders: bytes kept (live files, versions and trash), kept incrementally; the volume limit applies to it. */
  usage_bytes: number;
  /** Root folders: the part of usage_bytes held by file versions. */
  version_bytes: Generated<number>;
  /** Root folders: the part of usage_bytes held by the trash. */
  trash_bytes: Generated<number>;
  /** Who wrote the file's current content (null: its owner). */
  content_by: string | null;
  /** '' while live; the node's own id once trashed. */
  trash_key: string;
  trashed_at: string | null;
  trashed_by: string | null;
  original_parent_id: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Per folder, kept by triggers on `nodes` (migrations tree_changes and folder_counts): the
 * count of changes to its direct children a snapshot records, and its live children and live
 * sub-folders. A folder without a row has 0 of each. Written by the triggers only.
 */
export interface TreeChangesTable {
  folder_id: string;
  changes: number | string;
  live_children: number | string;
  live_folders: number | string;
}

export interface BlobsTable {
  backend: string;
  hash: string;
  size: number;
  ref_count: number;
  created_at: string;
}

/** An earlier content of a file, kept when it was replaced; holds a reference to its blob. */
export interface FileVersionsTable {
  id: string;
  node_id: string;
  /** The root whose usage counts it. */
  root_id: string;
  backend: string;
  content_hash: string;
  blob_key: string;
  size: number;
  author_id: string | null;
  /** When this content was written. */
  written_at: string;
  /** When it stopped being the current content (retention counts from here). */
  replaced_at: string;
}

/** A root folder's own version retention; a null field follows the global setting. */
export interface VersionPoliciesTable {
  root_id: string;
  max_versions: number | null;
  max_age_days: number | null;
  updated_at: string;
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
  /** The client's upload id ('' when it sent none): part of the session's key. */
  client_key: Generated<string>;
}

/** The one write in progress of a chunk not yet recorded; `expires_at` in epoch ms. */
export interface UploadLeasesTable {
  session_id: string;
  idx: number;
  token: string;
  expires_at: number;
}

/** One reference an upload holds on a blob while it writes and links it. */
export interface BlobPinsTable {
  id: string;
  backend: string;
  hash: string;
  created_at: string;
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
  /** Rows written before message keys: their old text (now under `params.text` too); '' since. */
  message: string;
  level: number;
  read: number;
  created_at: string;
  /** The message key (NOTIFICATION_KEYS) the reader's catalogue renders. */
  message_key: string;
  /** JSON object of the key's parameters. */
  params: string;
  /** The open upload batch this row collects (unique per user), NULL once closed or for other notifications. */
  batch_key: string | null;
  /** When the open batch closes unless another file joins it. */
  batch_until: string | null;
  /** Files in the batch (0 for other notifications). */
  batch_count: number;
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

/** An incoming webhook: a URL an outside system calls with its access token to upload into `path`. */
export interface IncomingWebhooksTable {
  id: string;
  title: string;
  description: string;
  token: string;
  /** SHA-256 (hex) of the access token; the token itself is not kept. */
  access_token_hash: string;
  path: string;
  user_id: string | null;
  user_email: string;
  created_at: string;
}

/** An outgoing webhook: a URL told of events, each delivery signed with `secret`. */
export interface OutgoingWebhooksTable {
  id: string;
  title: string;
  url: string;
  secret: string;
  /** JSON list of event names. */
  events: string;
  user_id: string | null;
  user_email: string;
  created_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event: string;
  /** The event's own id, the same for every webhook it goes to; unique per webhook (one delivery per event). */
  event_id: string;
  /** The JSON body sent. */
  payload: string;
  /** pending, delivered or failed. */
  status: string;
  attempts: number;
  response_status: number | null;
  error: string | null;
  /** When a pending delivery is next tried (also its lease while being sent). */
  next_attempt_at: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** A move or copy of a root folder's contents between the server and cloud backends. */
export interface StorageSyncsTable {
  id: string;
  task_id: string;
  root_id: string;
  path: string;
  mode: string;
  source: string;
  target: string;
  target_name: string | null;
  status: string;
  bytes_total: number;
  bytes_done: number;
  error: string | null;
  owner_id: string;
  created_at: string;
  /** Heartbeat of the process running it. */
  updated_at: string;
}

/** A blob a sync copied and holds one reference on. */
export interface StorageSyncPinsTable {
  sync_id: string;
  backend: string;
  hash: string;
  size: number;
}

/** A snapshot plan; the repository password is sealed (see snapshots/password-box.ts). */
export interface SnapshotPlansTable {
  id: string;
  name: string;
  backup_type: string;
  target_all: number;
  /** JSON array of root folder ids. */
  target_roots: string;
  location_kind: string;
  location_path: string;
  location_bucket: string;
  location_prefix: string;
  password_sealed: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  /** The backup repository's own id, from its config (null for plans older than the column, until first opened). */
  repository_id: string | null;
}

export interface SnapshotSchedulesTable {
  id: string;
  plan_id: string;
  /** Comma-separated days of the week, 0 Sunday … 6 Saturday. */
  days: string;
  /** HH:mm, server time zone. */
  time: string;
  status: string;
  position: number;
  created_at: string;
}

/** A due minute of a schedule, claimed by the one process that runs it. */
export interface SnapshotSlotsTable {
  schedule_id: string;
  slot: string;
  created_at: string;
}

export interface SnapshotRunsTable {
  id: string;
  plan_id: string;
  status: string;
  trigger: string;
  backup_type: string;
  task_id: string | null;
  vault_snapshot_id: string | null;
  files: number;
  size: number;
  bytes_added: number;
  error: string | null;
  started_by: string | null;
  started_at: string;
  finished_at: string | null;
}

export interface RestoresTable {
  id: string;
  run_id: string;
  status: string;
  /** JSON array of snapshot paths. */
  items: string;
  target_kind: string;
  target_path: string | null;
  /** RestoreConflict: 'keep-both' or 'replace'. */
  on_conflict: string;
  task_id: string | null;
  files: number;
  size: number;
  failed: number;
  error: string | null;
  started_by: string | null;
  started_at: string;
  finished_at: string | null;
}

/** The one snapshot-or-restore operation running now (row id 'operation'). */
export interface SnapshotOperationTable {
  id: string;
  kind: string;
  ref_id: string;
  holder: string;
  heartbeat_at: string;
}

/** Text extracted from a file's contents for search, one row per content hash (copies share it). */
export interface SearchTextsTable {
  /** Row number (SQLite: the rowid the full-text index refers to). */
  seq: Generated<number>;
  hash: string;
  /** indexed, skipped (no text to extract) or failed. */
  status: string;
  body: string;
  /** 1 when the text was cut at the size cap. */
  truncated: number;
  updated_at: string;
}

/** SQLite only: node names mirrored by triggers, with an integer rowid for the trigram index. */
export interface SearchNamesTable {
  seq: Generated<number>;
  node_id: string;
  name: string;
}

/** An approval request for a secure folder: download or share-link creation. */
export interface RequestsTable {
  id: string;
  /** download or share. */
  type: string;
  /** PENDING, APPROVED, REJECTED, CANCELED or EXPIRED. */
  status: string;
  requester_id: string;
  approver_id: string | null;
  reason: string;
  decision_reason: string | null;
  download_limit: number;
  downloads_used: number;
  downloads_done: number;
  used_at: string | null;
  created_at: string;
  approved_at: string | null;
  final_approved_at: string | null;
  processed_at: string | null;
  expires_at: string;
  updated_at: string;
}

/** A path a request covers, by node id (stable across moves) and the path it had. */
export interface RequestItemsTable {
  request_id: string;
  node_id: string;
  path: string;
}

/** A share link: the random key (and its SHA-256 for lookups), the item and the link's rules. */
export interface SharesTable {
  id: string;
  key: string;
  key_hash: string;
  node_id: string;
  created_by: string;
  /** anyone, login, specific or private. */
  scope: string;
  password_hash: string | null;
  expires_at: string | null;
  download_limit: number | null;
  downloads_used: number;
  downloads_done: number;
  preview: number;
  request_id: string | null;
  expired_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A user or group a `specific` share link is meant for. */
export interface ShareRecipientsTable {
  share_id: string;
  entity_type: 'user' | 'group';
  entity_id: string;
}

/** A download in flight against a limited link (kind share) or an approved request (kind request). */
export interface DownloadReservationsTable {
  id: string;
  kind: 'share' | 'request';
  target_id: string;
  created_at: string;
}

/** Nonces of used single-use download tickets, kept until the tickets expire. */
export interface SpentTicketsTable {
  nonce: string;
  expires_at: string;
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

/** A WebDAV write lock on a tree path (RFC 4918); `root` is the path's first segment. */
export interface DavLocksTable {
  token: string;
  root: string;
  path: string;
  depth: string;
  scope: string;
  owner_xml: string;
  account_id: string;
  timeout_seconds: number;
  created_at: string;
  /** Epoch milliseconds. */
  expires_at: number;
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

/** A WebDAV dead property of a node (PROPPATCH): its XML namespace, local name and value as XML. */
export interface DavPropertiesTable {
  node_id: string;
  namespace: string;
  name: string;
  value: string;
  updated_at: string;
}

export interface Database {
  users: UsersTable;
  access_log: AccessLogTable;
  settings: SettingsTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  login_challenges: LoginChallengesTable;
  webauthn_credentials: WebauthnCredentialsTable;
  webauthn_challenges: WebauthnChallengesTable;
  audit_records: AuditRecordsTable;
  audit_chain: AuditChainTable;
  audit_digests: AuditDigestsTable;
  nodes: NodesTable;
  tree_changes: TreeChangesTable;
  blobs: BlobsTable;
  file_versions: FileVersionsTable;
  version_policies: VersionPoliciesTable;
  upload_sessions: UploadSessionsTable;
  upload_chunks: UploadChunksTable;
  upload_leases: UploadLeasesTable;
  blob_pins: BlobPinsTable;
  spent_tickets: SpentTicketsTable;
  stars: StarsTable;
  recents: RecentsTable;
  notifications: NotificationsTable;
  notices: NoticesTable;
  tasks: TasksTable;
  search_texts: SearchTextsTable;
  search_names: SearchNamesTable;
  snapshot_plans: SnapshotPlansTable;
  snapshot_schedules: SnapshotSchedulesTable;
  snapshot_slots: SnapshotSlotsTable;
  snapshot_runs: SnapshotRunsTable;
  restores: RestoresTable;
  snapshot_operation: SnapshotOperationTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  resources: ResourcesTable;
  resource_entries: ResourceEntriesTable;
  incoming_webhooks: IncomingWebhooksTable;
  outgoing_webhooks: OutgoingWebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  storage_syncs: StorageSyncsTable;
  storage_sync_pins: StorageSyncPinsTable;
  requests: RequestsTable;
  request_items: RequestItemsTable;
  shares: SharesTable;
  share_recipients: ShareRecipientsTable;
  download_reservations: DownloadReservationsTable;
  avatars: AvatarsTable;
  attempt_counters: AttemptCountersTable;
  serial_locks: SerialLocksTable;
  app_passwords: AppPasswordsTable;
  dav_locks: DavLocksTable;
  dav_properties: DavPropertiesTable;
}

export type { Generated };
