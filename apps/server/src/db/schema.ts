import type { Generated } from 'kysely';
import type {
  UsersTable,
  AccessLogTable,
  SettingsTable,
  SessionsTable,
  RefreshTokensTable,
  LoginChallengesTable,
  WebauthnCredentialsTable,
  WebauthnChallengesTable,
  GroupsTable,
  GroupMembersTable,
  ResourcesTable,
  ResourceEntriesTable,
  AttemptCountersTable,
  SerialLocksTable,
  AvatarsTable,
  AppPasswordsTable,
} from './schema/accounts.js';
export type * from './schema/accounts.js';
import type {
  NodesTable,
  TreeChangesTable,
  BlobsTable,
  FileVersionsTable,
  VersionPoliciesTable,
  UploadSessionsTable,
  UploadLeasesTable,
  BlobPinsTable,
  UploadChunksTable,
  StarsTable,
  RecentsTable,
  StorageSyncsTable,
  StorageSyncPinsTable,
  SearchTextsTable,
  SearchNamesTable,
  DavLocksTable,
  DavPropertiesTable,
} from './schema/files.js';
export type * from './schema/files.js';
import type {
  AuditRecordsTable,
  AuditChainTable,
  AuditDigestsTable,
  NotificationsTable,
  NoticesTable,
  TasksTable,
  IncomingWebhooksTable,
  OutgoingWebhooksTable,
  WebhookDeliveriesTable,
  SnapshotPlansTable,
  SnapshotSchedulesTable,
  SnapshotSlotsTable,
  SnapshotRunsTable,
  RestoresTable,
  SnapshotOperationTable,
} from './schema/operations.js';
export type * from './schema/operations.js';
import type { RequestsTable, RequestItemsTable, SharesTable, ShareRecipientsTable, DownloadReservationsTable, SpentTicketsTable } from './schema/sharing.js';
export type * from './schema/sharing.js';

/**
 * Table types as Kysely sees them. Portable across SQLite and PostgreSQL: times are
 * ISO-8601 text in UTC (sortable), flags are integers 0/1, ids are UUIDv7 text. The tables'
 * row types live by domain in ./schema/.
 */
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
