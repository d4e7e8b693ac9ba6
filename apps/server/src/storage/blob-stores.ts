import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { claimIdentity, readIdentity } from './blob-marker.js';
import type { BlobStore } from './blob-store.js';
import { LocalBlobStore } from './local-blob-store.js';
import type { S3BlobStore, S3Connection } from './s3-blob-store.js';

type S3Driver = typeof import('./s3-blob-store.js');

/** Settings keys of the two stores. */
export const SERVER_PATH_SETTING = 'server.path';
export const CLOUD_BUCKET_SETTING = 'cloud.bucket';

/** The setting that records the id of the directory `server.path` names (from its identity file). */
export const SERVER_DIRECTORY_SETTING = 'server.directory';

export interface StoreSettings {
  get<T>(key: string): Promise<T | undefined>;
  /** Stores the value unless the key exists; answers the value stored afterwards. */
  getOrInsert<T>(key: string, value: T): Promise<T>;
  set<T>(key: string, value: T): Promise<void>;
}

/**
 * `server.path` is not the directory the installation's other processes use (or not this
 * installation's at all): chunks and blobs written here would be missing on the others.
 */
export class ServerPathNotSharedError extends Error {
  constructor(
    readonly root: string,
    readonly reason: string,
  ) {
    super(
      `The server storage directory ${root} ${reason}. Every server process of one installation must use the same ` +
        `shared directory: mount it at the same path on every machine and set it as the storage setting server.path ` +
        `(PUT /api/setting/storage; without that setting it is BOGWAN_DATA_DIR/blobs, which is then not shared).`,
    );
    this.name = 'ServerPathNotSharedError';
  }
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
  private installationAsked: Promise<string> | undefined;

  constructor(
    private readonly settings: StoreSettings,
    private readonly dataDir: string,
    private readonly s3: S3Connection,
    /** This installation's id (modules/system/installation.ts). */
    private readonly installation: () => Promise<string>,
  ) {}

  /** The default local directory when `server.path` is not set. */
  get defaultServerPath(): string {
    return path.join(this.dataDir, 'blobs');
  }

  async serverPath(): Promise<string> {
    return (await this.settings.get<string>(SERVER_PATH_SETTING)) ?? this.defaultServerPath;
  }

  /** The server store; its directory is verified (identity file) the first time this process uses it. */
  async local(): Promise<LocalBlobStore> {
    const root = await this.serverPath();
    let store = this.locals.get(root);
    if (!store) {
      const opened = new LocalBlobStore(root);
      await this.verify(opened.root, true);
      store = this.locals.get(root) ?? opened;
      this.locals.set(root, store);
    }
    return store;
  }

  /**
   * Checks that `root` is the installation's shared server directory: its identity file
   * names this installation and the directory id the database records. The first process
   * of an installation (new, or upgraded from a version without the file) creates the file
   * and records its id; `adopt` lets a directory without a file be claimed only then.
   */
  async verify(root: string, adopt: boolean): Promise<void> {
    const installation = await this.installationId();
    let identity = readIdentity(root);
    if (!identity) {
      if (!adopt || (await this.settings.get<string>(SERVER_DIRECTORY_SETTING)) !== undefined) {
        throw new ServerPathNotSharedError(root, 'is not the directory the other processes of this installation use (it has no identity file)');
      }
      identity = claimIdentity(root, installation);
    }
    if (identity.installation !== installation) throw new ServerPathNotSharedError(root, 'belongs to another installation');
    const recorded = adopt
      ? await this.settings.getOrInsert(SERVER_DIRECTORY_SETTING, identity.directory)
      : await this.settings.get<string>(SERVER_DIRECTORY_SETTING);
    if (recorded !== identity.directory) throw new ServerPathNotSharedError(root, 'is not the directory the other processes of this installation use');
  }

  /**
   * Makes `root` the installation's server directory (the storage setting changes to it):
   * gives it an identity file and records its id.
   */
  async adopt(root: string): Promise<void> {
    const installation = await this.installationId();
    const identity = claimIdentity(root, installation);
    if (identity.installation !== installation) throw new ServerPathNotSharedError(root, 'belongs to another installation');
    await this.settings.set(SERVER_DIRECTORY_SETTING, identity.directory);
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

  /** The installation's id, asked once (it never changes). */
  private installationId(): Promise<string> {
    this.installationAsked ??= this.installation();
    return this.installationAsked;
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
    return (await this.health()).ok;
  }

  /** Health with the reason when the server directory is not the installation's shared one. */
  async health(): Promise<{ ok: boolean; reason?: 'server_path_not_shared' }> {
    let local: LocalBlobStore;
    try {
      local = await this.local();
      await this.verify(local.root, false);
    } catch (error) {
      if (error instanceof ServerPathNotSharedError) return { ok: false, reason: 'server_path_not_shared' };
      return { ok: false };
    }
    if (!(await local.healthy())) return { ok: false };
    const cloud = await this.cloud().catch(() => null);
    return { ok: cloud ? await cloud.healthy() : true };
  }

  close(): void {
    this.client?.destroy();
  }
}
