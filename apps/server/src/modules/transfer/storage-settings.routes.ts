import fs from 'node:fs';
import path from 'node:path';
import { storageSettingsRequestSchema, storageSettingsSchema, type StorageSettings } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { badRequest, forbidden } from '../../errors.js';
import type { RoutePolicy } from '../../http/policy.js';
import { type BlobStores, CLOUD_BUCKET_SETTING, SERVER_PATH_SETTING } from '../../storage/blob-stores.js';
import { LocalBlobStore } from '../../storage/local-blob-store.js';
import { bucketExists } from '../../storage/s3-blob-store.js';
import type { EventsService } from '../events/events.service.js';
import type { SettingsRepo } from '../settings/settings.repo.js';

const category = 'setting';
const policies = {
  read: { category, name: 'storage_setting', description: 'Where the server and cloud backends keep file contents', level: 2 },
  update: { category, name: 'storage_setting_update', description: 'Set the server directory and the cloud bucket (the bucket must exist)', level: 2 },
} satisfies Record<string, RoutePolicy>;

export interface StorageSettingsDeps {
  stores: BlobStores;
  settings: SettingsRepo;
  events: EventsService;
}

/**
 * The storage settings (`server.path`, `cloud.bucket`). A bucket is saved only when it
 * exists and answers (HeadBucket); a directory only when it can be created and written.
 */
export async function storageSettingsRoutes(app: FastifyInstance, { stores, settings, events }: StorageSettingsDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const current = async (): Promise<StorageSettings> => ({
    server: { path: await stores.serverPath() },
    cloud: { bucket: (await settings.get<string>(CLOUD_BUCKET_SETTING)) ?? null },
  });

  r.get(
    '/api/setting/storage',
    { config: { policy: policies.read }, schema: { tags: [category], response: { 200: storageSettingsSchema } } },
    current,
  );

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
      if (cloud && !(await bucketExists(stores.s3Client(), cloud.bucket))) throw badRequest('cloud_bucket_missing');
      if (server) {
        if (!path.isAbsolute(server.path)) throw badRequest('invalid_path');
        const writable = await (async () => {
          try {
            fs.mkdirSync(server.path, { recursive: true });
            return await new LocalBlobStore(server.path).healthy();
          } catch {
            return false;
          }
        })();
        if (!writable) throw badRequest('invalid_path');
        await settings.set(SERVER_PATH_SETTING, path.resolve(server.path));
      }
      if (cloud) await settings.set(CLOUD_BUCKET_SETTING, cloud.bucket);
      await events.record({ service: 'setting', message: 'Storage settings saved', userId: request.user!.id, ip: request.ip });
      return current();
    },
  );
}
