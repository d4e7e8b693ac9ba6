import fs from 'node:fs';
import path from 'node:path';
import { storageSettingsRequestSchema, storageSettingsSchema, type StorageSettings } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { badRequest, conflict, forbidden } from '../../errors.js';
import type { RoutePolicy } from '../../http/policy.js';
import { blobDirectoryState, isInsideBlobDirectory, markBlobDirectory } from '../../storage/blob-marker.js';
import { type BlobStores, CLOUD_BUCKET_SETTING, SERVER_PATH_SETTING, ServerPathNotSharedError } from '../../storage/blob-stores.js';
import { LocalBlobStore } from '../../storage/local-blob-store.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { SettingsRepo } from '../settings/settings.repo.js';
import type { StorageUseRepo } from './storage-use.repo.js';

const category = 'setting';
const policies = {
  read: { category, name: 'storage_setting', description: 'Where the server and cloud backends keep file contents', level: 2 },
  update: { category, name: 'storage_setting_update', description: 'Set the server directory and the cloud bucket (the bucket must exist)', level: 2 },
} satisfies Record<string, RoutePolicy>;

export interface StorageSettingsDeps {
  stores: BlobStores;
  settings: SettingsRepo;
  audit: AuditRecorder;
  use: StorageUseRepo;
}

/**
 * Checks a new `server.path` without changing anything: absolute, and a directory that is
 * empty, does not exist yet, or is already a marked blob directory, never inside one.
 * Anything else (`/`, a home directory, the data directory) would mix the server's files
 * with others that clean-up could then delete.
 */
function checkServerPath(wanted: string): void {
  const real = fs.existsSync(wanted) ? fs.realpathSync(wanted) : wanted;
  if (isInsideBlobDirectory(wanted) || isInsideBlobDirectory(real)) throw badRequest('invalid_path');
  if (blobDirectoryState(real) === 'foreign') throw badRequest('storage_path_not_empty');
}

/** Creates the directory, marks it as a blob directory and checks it can be written. */
async function prepareServerPath(dir: string): Promise<void> {
  try {
    fs.mkdirSync(dir, { recursive: true });
    // Checked again: something may have appeared since the first look.
    if (blobDirectoryState(dir) === 'foreign') throw badRequest('storage_path_not_empty');
    markBlobDirectory(dir);
    if (await new LocalBlobStore(dir).healthy()) return;
  } catch (error) {
    if ((error as { messageKey?: string }).messageKey) throw error;
  }
  throw badRequest('invalid_path');
}

/**
 * The storage settings (`server.path`, `cloud.bucket`). A bucket is saved only when it
 * exists and answers (HeadBucket); a directory only when it is new, empty or already a
 * blob directory. Either location changes only while its backend holds no file contents:
 * files are read from the location set now, so moving it under them would strand them
 * (409 `storage_backend_in_use`; the root folders are moved with the sync task first).
 */
export async function storageSettingsRoutes(app: FastifyInstance, { stores, settings, audit, use }: StorageSettingsDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const current = async (): Promise<StorageSettings> => ({
    server: { path: await stores.serverPath() },
    cloud: { bucket: (await settings.get<string>(CLOUD_BUCKET_SETTING)) ?? null },
  });
  const refuseWhileInUse = async (backend: 'server' | 'cloud') => {
    if (await use.holdsContents(backend)) throw conflict('storage_backend_in_use');
  };

  r.get('/api/setting/storage', { config: { policy: policies.read }, schema: { tags: [category], response: { 200: storageSettingsSchema } } }, current);

  r.put(
    '/api/setting/storage',
    {
      config: { policy: policies.update },
      schema: { tags: [category], body: storageSettingsRequestSchema, response: { 200: storageSettingsSchema } },
    },
    async (request) => {
      const { server, cloud } = request.body;
      // The cloud fields open only in admin mode (the administrator's password, this session).
      if (cloud && !(await app.adminMode.isOn(request.sessionId))) throw forbidden('admin_mode_required');
      if (server && !path.isAbsolute(server.path)) throw badRequest('invalid_path');
      const serverPath = server ? path.resolve(server.path) : undefined;
      const serverChanges = serverPath !== undefined && serverPath !== (await stores.serverPath());
      if (serverChanges) checkServerPath(serverPath);
      const before = await current();
      const cloudChanges = cloud !== undefined && cloud.bucket !== before.cloud.bucket;
      if (serverChanges) await refuseWhileInUse('server');
      if (cloudChanges) await refuseWhileInUse('cloud');
      if (cloud && !(await stores.bucketExists(cloud.bucket))) throw badRequest('cloud_bucket_missing');
      if (serverChanges) {
        await prepareServerPath(serverPath);
        // The new directory becomes the one every process must see (its identity file, recorded).
        await stores.adopt(serverPath).catch((error: unknown) => {
          throw error instanceof ServerPathNotSharedError ? badRequest('invalid_path') : error;
        });
        await settings.set(SERVER_PATH_SETTING, serverPath);
      }
      if (cloudChanges) await settings.set(CLOUD_BUCKET_SETTING, cloud.bucket);
      if (serverChanges || cloudChanges) {
        const params = {
          ...(serverChanges ? { serverFrom: before.server.path, serverTo: serverPath } : {}),
          ...(cloudChanges ? { cloudFrom: before.cloud.bucket, cloudTo: cloud.bucket } : {}),
        };
        await audit.record({ action: 'settings.change', target: { kind: 'setting', id: 'storage' }, params });
      }
      return current();
    },
  );
}
