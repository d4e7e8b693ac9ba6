import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { BlobStore } from './blob-store.js';
import { LocalBlobStore } from './local-blob-store.js';
import type { S3BlobStore, S3Connection } from './s3-blob-store.js';

type S3Driver = typeof import('./s3-blob-store.js');

/** Settings keys of the two stores. */
export const SERVER_PATH_SETTING = 'server.path';
export const CLOUD_BUCKET_SETTING = 'cloud.bucket';

export interface StoreSettings {
  get<T>(key: string): Promise<T | undefined>;
}

/**
 * Picks the store of a root folder's backend. The server store lives at the setting
 * `server.path` (default `<data dir>/blobs`), the cloud store in the bucket named by
 * `cloud.bucket`; both are read from settings on each call, so a change saved by another
 * process is followed, and the store objects are kept per location.
 */
export class BlobStores {
  private readonly locals = new Map<string, LocalBlobStore>();
  private readonly clouds = new Map<string, S3BlobStore>();
  private client: S3Client | undefined;
  private driver: Promise<S3Driver> | undefined;

  constructor(
    private readonly settings: StoreSettings,
    private readonly dataDir: string,
    private readonly s3: S3Connection,
  ) {}

  /** The default local directory when `server.path` is not set. */
  get defaultServerPath(): string {
    return path.join(this.dataDir, 'blobs');
  }

  async serverPath(): Promise<string> {
    return (await this.settings.get<string>(SERVER_PATH_SETTING)) ?? this.defaultServerPath;
  }

  async local(): Promise<LocalBlobStore> {
    const root = await this.serverPath();
    let store = this.locals.get(root);
    if (!store) {
      store = new LocalBlobStore(root);
      this.locals.set(root, store);
    }
    return store;
  }

  /** The cloud store, or null while no bucket is configured. */
  async cloud(): Promise<S3BlobStore | null> {
    const bucket = await this.settings.get<string>(CLOUD_BUCKET_SETTING);
    if (!bucket) return null;
    const kept = this.clouds.get(bucket);
    if (kept) return kept;
    const [{ S3BlobStore }, client] = await Promise.all([this.s3Driver(), this.s3Client()]);
    const store = this.clouds.get(bucket) ?? new S3BlobStore(client, bucket);
    this.clouds.set(bucket, store);
    return store;
  }

  /** The store of a backend, or null (cloud without a bucket). */
  async forBackend(backend: string): Promise<BlobStore | null> {
    if (backend === 'server') return this.local();
    if (backend === 'cloud') return this.cloud();
    return null;
  }

  /** Whether `bucket` exists at the configured endpoint (checked before it is saved). */
  async bucketExists(bucket: string): Promise<boolean> {
    const [{ bucketExists }, client] = await Promise.all([this.s3Driver(), this.s3Client()]);
    return bucketExists(client, bucket);
  }

  /** The client for the configured endpoint. */
  private async s3Client(): Promise<S3Client> {
    const { s3Client } = await this.s3Driver();
    this.client ??= s3Client(this.s3);
    return this.client;
  }

  /** The S3 driver, loaded with the first use of a bucket: a server without one does not carry the SDK. */
  private s3Driver(): Promise<S3Driver> {
    this.driver ??= import('./s3-blob-store.js');
    return this.driver;
  }

  /** Health: the local store always, the cloud store when a bucket is configured. */
  async healthy(): Promise<boolean> {
    const local = await (await this.local()).healthy();
    if (!local) return false;
    const cloud = await this.cloud().catch(() => null);
    return cloud ? cloud.healthy() : true;
  }

  close(): void {
    this.client?.destroy();
  }
}
