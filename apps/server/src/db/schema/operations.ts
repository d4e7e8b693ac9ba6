// Tables of the schema (db/schema.ts): audit, notifications, tasks, webhooks and snapshots.

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
