// Public API of the backup engine.
export type { Backend, StoredFile } from './backend/backend.js';
export { NotFoundError, UnreachableError } from './backend/backend.js';
export { LocalBackend } from './backend/local.js';
export { isUnreachable, S3Backend, type S3Options } from './backend/s3.js';
export { openBackend } from './backend/open.js';
export { backup, type BackupOptions, type BackupResult } from './backup.js';
export { check, type CheckOptions, type CheckResult } from './check.js';
export { DamagedBlobError } from './codec.js';
export { forget, type KeepPolicy } from './forget.js';
export { WrongPasswordError, type KdfParams } from './keys.js';
export { Lock, LockedError, LockLostError, isStale, type LockRecord } from './lock.js';
export { prune, type PruneOptions, type PruneResult } from './prune.js';
export { NoRepositoryError, Repository, type InitOptions } from './repository.js';
export { restore, type RestoreOptions, type RestoreResult } from './restore.js';
export { findSnapshot, listSnapshots, type Snapshot, type BackupStats } from './snapshot.js';
export { walkPaths, type BackupSource, type SourceEntry } from './source.js';
export { withRepository } from './session.js';
export { blobCodecInUse } from './native.js';
