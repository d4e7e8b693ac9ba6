import type { Migration } from 'kysely';
import * as initial from './20261122_0001_initial.js';
import * as signIn from './20261122_0002_sign_in.js';
import * as files from './20261122_0003_files.js';
import * as filesListing from './20261122_0004_files_listing.js';
import * as realtime from './20261122_0005_realtime.js';
import * as filesPerformance from './20261122_0006_files_performance.js';
import * as accountsPermissions from './20261122_0007_accounts_permissions.js';
import * as search from './20261122_0008_search.js';
import * as snapshots from './20261122_0009_snapshots.js';
import * as adminLogs from './20261122_0010_admin_logs.js';
import * as webhooks from './20261122_0011_webhooks.js';
import * as sharing from './20261122_0012_sharing.js';
import * as spentTickets from './20261124_0013_spent_tickets.js';
import * as uploadLeases from './20261127_0101_upload_leases.js';
import * as nfcNames from './20261127_0201_nfc_names.js';
import * as breakCycles from './20261127_0202_break_cycles.js';
import * as attemptCounters from './20261127_0301_attempt_counters.js';
import * as dropLoginThrottle from './20261127_0302_drop_login_throttle.js';
import * as avatars from './20261127_0401_avatars.js';
import * as snapshotRepositoryId from './20261127_0402_snapshot_repository_id.js';
import * as oneRunningSync from './20261127_0403_one_running_sync.js';
import * as appPasswords from './20261127_1101_app_passwords.js';
import * as davProperties from './20261127_1201_dav_properties.js';
import * as davLocks from './20261127_1301_dav_locks.js';
import * as auditTrail from './20261127_1401_audit_trail.js';
import * as dropEvents from './20261127_1402_drop_events.js';
import * as webhookEventIds from './20261127_1601_webhook_event_ids.js';
import * as notificationKeys from './20261127_2601_notification_keys.js';
import * as accountLanguage from './20261127_2602_account_language.js';
import * as fileVersions from './20261127_2701_file_versions.js';
import * as restoreOnConflict from './20261127_2702_restore_on_conflict.js';
import * as treeChanges from './20261128_0101_tree_changes.js';
import * as trashListing from './20261128_0501_trash_listing.js';
import * as folderCounts from './20261128_1101_folder_counts.js';

/**
 * Every migration, in order. Listed by hand (not read from the directory) so the
 * bundled server carries them; names sort by their timestamp prefix.
 */
export const migrations: Record<string, Migration> = {
  '20261122_0001_initial': initial,
  '20261122_0002_sign_in': signIn,
  '20261122_0003_files': files,
  '20261122_0004_files_listing': filesListing,
  '20261122_0005_realtime': realtime,
  '20261122_0006_files_performance': filesPerformance,
  '20261122_0007_accounts_permissions': accountsPermissions,
  '20261122_0008_search': search,
  '20261122_0009_snapshots': snapshots,
  '20261122_0010_admin_logs': adminLogs,
  '20261122_0011_webhooks': webhooks,
  '20261122_0012_sharing': sharing,
  '20261124_0013_spent_tickets': spentTickets,
  '20261127_0101_upload_leases': uploadLeases,
  '20261127_0201_nfc_names': nfcNames,
  '20261127_0202_break_cycles': breakCycles,
  '20261127_0301_attempt_counters': attemptCounters,
  '20261127_0302_drop_login_throttle': dropLoginThrottle,
  '20261127_0401_avatars': avatars,
  '20261127_0402_snapshot_repository_id': snapshotRepositoryId,
  '20261127_0403_one_running_sync': oneRunningSync,
  '20261127_1101_app_passwords': appPasswords,
  '20261127_1201_dav_properties': davProperties,
  '20261127_1301_dav_locks': davLocks,
  '20261127_1401_audit_trail': auditTrail,
  '20261127_1402_drop_events': dropEvents,
  '20261127_1601_webhook_event_ids': webhookEventIds,
  '20261127_2601_notification_keys': notificationKeys,
  '20261127_2602_account_language': accountLanguage,
  '20261127_2701_file_versions': fileVersions,
  '20261127_2702_restore_on_conflict': restoreOnConflict,
  '20261128_0101_tree_changes': treeChanges,
  '20261128_0501_trash_listing': trashListing,
  '20261128_1101_folder_counts': folderCounts,
};
