import fs from 'node:fs/promises';
import path from 'node:path';
import { type Backend, LocalBackend, NoRepositoryError, Repository, S3Backend, UnreachableError, WrongPasswordError } from '@bogwan/vault';
import type { SnapshotLocation } from '@bogwan/contracts';
import type { Config } from '../../config.js';
import { AppError, badRequest } from '../../errors.js';
import type { SnapshotContext } from './context.js';
import type { PlanRow } from './plans.repo.js';

/** The stored location of a plan, as the API shows it. */
export function locationOf(plan: PlanRow): SnapshotLocation {
  return plan.location_kind === 's3' ? { kind: 's3', bucket: plan.location_bucket, prefix: plan.location_prefix } : { kind: 'local', path: plan.location_path };
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
 * prefix) gets a new repository. A directory holding other files is refused. Answers
 * the repository's id.
 */
export async function prepareRepository(backend: Backend, location: SnapshotLocation, password: string): Promise<string> {
  try {
    if (await backend.stat('config')) return (await Repository.open(backend, password)).config.id;
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
    return (await Repository.init(backend, password)).config.id;
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof UnreachableError) throw unreachable();
    throw badRequest('snapshot_location_invalid');
  }
}

/**
 * Opens a plan's repository and checks that it is the one the plan was made with. Server
 * processes on other machines see their own disk at a local location: where the plan's
 * repository is missing, or another one stands (made there by a plan created through
 * that process), the location is not shared, and snapshots must not be split between
 * two repositories: 503 `snapshot_location_not_shared`. A plan older than the recorded
 * id gets it here, the first time.
 */
export async function openPlanRepository(ctx: Pick<SnapshotContext, 'box' | 'plans'>, plan: PlanRow, backend: Backend): Promise<Repository> {
  let repo: Repository;
  try {
    repo = await Repository.open(backend, ctx.box.open(plan.password_sealed, plan.id));
  } catch (error) {
    if (error instanceof NoRepositoryError) throw notThePlans(plan);
    // The repository's password was changed behind the plan's back (or another repository
    // with another password stands there): nothing tells the two apart.
    if (error instanceof WrongPasswordError) throw cannotRestore();
    if (error instanceof UnreachableError) throw unreachable();
    throw error;
  }
  if (plan.repository_id === null) await ctx.plans.recordRepositoryId(plan.id, repo.config.id);
  else if (repo.config.id !== plan.repository_id) throw notThePlans(plan);
  return repo;
}

/** No repository, or another one, where the plan's should be. */
function notThePlans(plan: PlanRow): AppError {
  // At a local location after the plan's repository was made: this process sees another disk.
  if (plan.location_kind === 'local' && plan.repository_id !== null) return new AppError(503, 'snapshot_location_not_shared');
  return cannotRestore();
}

/** The snapshot cannot be restored (read) from its repository. */
export const cannotRestore = () => new AppError(400, 'snapshot_cannot_restore');

/**
 * The save location did not answer (the engine tried several times): a 503 with a key of
 * its own, so the user knows that nothing is wrong with the snapshots and to try again.
 */
export function unreachable(): AppError {
  return new AppError(503, 'snapshot_location_unreachable');
}
