import fs from 'node:fs/promises';
import path from 'node:path';
import { type Backend, LocalBackend, NoRepositoryError, Repository, S3Backend, UnreachableError, WrongPasswordError } from '@bogwan/vault';
import type { SnapshotLocation } from '@bogwan/contracts';
import type { Config } from '../../config.js';
import { AppError, badRequest } from '../../errors.js';
import type { PlanRow } from './plans.repo.js';

/** The stored location of a plan, as the API shows it. */
export function locationOf(plan: PlanRow): SnapshotLocation {
  return plan.location_kind === 's3'
    ? { kind: 's3', bucket: plan.location_bucket, prefix: plan.location_prefix }
    : { kind: 'local', path: plan.location_path };
}

/**
 * Opens the backup engine's storage for a location: a directory, or a bucket of the
 * S3-compatible endpoint the server is configured with (`BOGWAN_S3_*`).
 */
export function backendOf(location: SnapshotLocation, s3: Config['s3']): Backend {
  if (location.kind === 'local') return new LocalBackend(location.path);
  return new S3Backend({
    bucket: location.bucket,
    prefix: location.prefix,
    endpoint: s3.endpoint,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
  });
}

const inside = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);

/**
 * Refuses a local location that would mix with the server's own files: inside the blob
 * store, or the data directory itself or one of its ancestors.
 */
export function assertLocalLocationAllowed(location: SnapshotLocation, blobRoot: string, dataDir: string): void {
  if (location.kind !== 'local') return;
  const target = path.resolve(location.path);
  if (inside(target, path.resolve(blobRoot)) || inside(path.resolve(blobRoot), target) || inside(path.resolve(dataDir), target)) {
    throw badRequest('snapshot_location_invalid');
  }
}

/**
 * Makes sure a repository exists at the location and opens with the password: an
 * existing repository must accept it; an empty or missing directory (or an empty
 * prefix) gets a new repository. A directory holding other files is refused.
 */
export async function prepareRepository(backend: Backend, location: SnapshotLocation, password: string): Promise<void> {
  try {
    if (await backend.stat('config')) {
      await Repository.open(backend, password);
      return;
    }
    if (location.kind === 'local') {
      const entries = await fs.readdir(location.path).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      });
      if (entries.length > 0) throw badRequest('snapshot_location_invalid');
      await fs.mkdir(location.path, { recursive: true });
    } else if ((await backend.list('')).length > 0) {
      throw badRequest('snapshot_location_invalid');
    }
    await Repository.init(backend, password);
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof UnreachableError) throw unreachable();
    throw badRequest('snapshot_location_invalid');
  }
}

/** Opens a repository; a wrong password or a location without one is `snapshot_cannot_restore`. */
export async function openRepository(backend: Backend, password: string): Promise<Repository> {
  try {
    return await Repository.open(backend, password);
  } catch (error) {
    if (error instanceof WrongPasswordError || error instanceof NoRepositoryError) throw new AppError(400, 'snapshot_cannot_restore');
    if (error instanceof UnreachableError) throw unreachable();
    throw error;
  }
}

/**
 * The save location did not answer (the engine tried several times): a 503 with a key of
 * its own, so the user knows that nothing is wrong with the snapshots and to try again.
 */
export function unreachable(): AppError {
  return new AppError(503, 'snapshot_location_unreachable');
}
