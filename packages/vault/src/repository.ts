import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type Backend, NotFoundError } from './backend/backend.js';
import { BlobIndex, type BlobLocation } from './blob-index.js';
import { type ChunkerParams, DEFAULT_CHUNKER } from './chunker.js';
import { DamagedBlobError, openBlob, openFile, sealFile } from './codec.js';
import { encodeIndex, forEachListed, type IndexContents, type IndexListings, readIndex } from './index-file.js';
import { blobId, DEFAULT_KDF, type KdfParams, type KeySlot, type MasterKey, newMasterKey, unwrapMasterKey, WrongPasswordError, wrapMasterKey } from './keys.js';
import { packName } from './pack.js';
import { GarbageMeter } from './gc.js';

/** Repository-wide settings, stored encrypted as `config`. */
export interface RepoConfig {
  version: 1;
  id: string;
  chunker: ChunkerParams;
  packSize: number;
  created: string;
}

/** Options for creating a repository. */
export interface InitOptions {
  kdf?: KdfParams;
  chunker?: ChunkerParams;
  packSize?: number;
}

/** Raised when the location holds no repository. */
export class NoRepositoryError extends Error {
  constructor(location: string) {
    super(`no repository at ${location} (run "init" first)`);
    this.name = 'NoRepositoryError';
  }
}

/** Index bytes read between collections while the index loads. */
const INDEX_GARBAGE = 16 * 1024 * 1024;

function newName(): string {
  return randomBytes(32).toString('hex');
}

/** An opened repository: backend, secrets, settings and the blob index. */
export class Repository {
  readonly index = new BlobIndex();
  /** Names of the index files loaded into `index`. */
  indexFiles: string[] = [];
  /** Every index file present, including superseded ones a crash left behind. */
  indexFilesOnDisk: string[] = [];
  /** The lock this process holds on the repository, checked before each commit. */
  private lock: { assertHeld(): void } | null = null;

  private constructor(
    readonly backend: Backend,
    readonly key: MasterKey,
    readonly config: RepoConfig,
  ) {}

  /** Creates a new repository protected by `password`. */
  static async init(backend: Backend, password: string, options: InitOptions = {}): Promise<Repository> {
    if (await backend.stat('config')) throw new Error(`a repository already exists at ${backend.location}`);
    const key = newMasterKey();
    const config: RepoConfig = {
      version: 1,
      id: newName(),
      chunker: options.chunker ?? DEFAULT_CHUNKER,
      packSize: options.packSize ?? backend.packSize,
      created: new Date().toISOString(),
    };
    const slot = await wrapMasterKey(key, password, options.kdf ?? DEFAULT_KDF, hostname());
    await backend.put(`keys/${newName()}`, Buffer.from(JSON.stringify(slot)));
    await backend.put('config', sealFile(key.encKey, 'config', Buffer.from(JSON.stringify(config))));
    return new Repository(backend, key, config);
  }

  /** Opens a repository, trying the password against every key slot. */
  static async open(backend: Backend, password: string): Promise<Repository> {
    let sealedConfig: Buffer;
    try {
      sealedConfig = await backend.get('config');
    } catch (err) {
      if (err instanceof NotFoundError) throw new NoRepositoryError(backend.location);
      throw err;
    }
    for (const file of await backend.list('keys/')) {
      const slot = JSON.parse((await backend.get(file.name)).toString('utf8')) as KeySlot;
      const key = await unwrapMasterKey(slot, password);
      if (!key) continue;
      const config = JSON.parse(openFile(key.encKey, 'config', sealedConfig).toString('utf8')) as RepoConfig;
      return new Repository(backend, key, config);
    }
    throw new WrongPasswordError();
  }

  /** Lists key slots by id. */
  async listKeys(): Promise<{ id: string; slot: KeySlot }[]> {
    const out = [];
    for (const file of await this.backend.list('keys/')) {
      const slot = JSON.parse((await this.backend.get(file.name)).toString('utf8')) as KeySlot;
      out.push({ id: file.name.slice('keys/'.length), slot });
    }
    return out;
  }

  /** Adds a key slot for another password; returns its id. */
  async addKey(password: string, kdf: KdfParams = DEFAULT_KDF, label?: string): Promise<string> {
    const slot = await wrapMasterKey(this.key, password, kdf, hostname(), label);
    const id = newName();
    await this.backend.put(`keys/${id}`, Buffer.from(JSON.stringify(slot)));
    return id;
  }

  /** Removes a key slot; refuses to remove the last one. */
  async removeKey(id: string): Promise<void> {
    const keys = await this.listKeys();
    if (!keys.some((k) => k.id === id)) throw new Error(`no key slot ${id}`);
    if (keys.length === 1) throw new Error('refusing to remove the last key slot');
    await this.backend.delete(`keys/${id}`);
  }

  /**
   * Loads every index file into memory, honouring files superseded by prune. Each file is
   * read once; its sealed and opened bytes are collected as they mount up (at a million
   * blobs they are ~80 MiB, more than the index itself). Only when a file that another one
   * supersedes was loaded (a prune stopped before deleting it) is the index built again
   * without it, so the superseding file's locations win.
   */
  async loadIndex(): Promise<void> {
    const files = (await this.backend.list('index/')).map((f) => f.name.slice('index/'.length));
    const superseded = new Set<string>();
    const garbage = new GarbageMeter(INDEX_GARBAGE);
    let read = 0;
    const load = async (name: string) => {
      const sealed = await this.backend.get(`index/${name}`);
      const listings = readIndex(openFile(this.key.encKey, 'index', sealed));
      for (const s of listings.superseded) superseded.add(s);
      this.addListings(listings);
      read += sealed.length;
      garbage.note(sealed.length * 2);
    };
    this.index.clear();
    for (const name of files) await load(name);
    if (files.some((name) => superseded.has(name))) {
      this.index.clear();
      for (const name of files) if (!superseded.has(name)) await load(name);
    }
    if (read >= INDEX_GARBAGE) garbage.collectAll();
    this.indexFilesOnDisk = files;
    this.indexFiles = files.filter((name) => !superseded.has(name));
  }

  private addListings(listings: IndexListings): void {
    this.index.reserve(this.index.size + listings.packs.reduce((sum, pack) => sum + pack.count, 0));
    for (const pack of listings.packs) {
      forEachListed(pack.listing, pack.count, (listing, at, type, offset, length, rawLength) => {
        this.index.addAt(listing, at, pack.id, type, offset, length, rawLength);
      });
    }
  }

  /**
   * Makes every commit (index and metadata files) check first that `lock` is still held,
   * so a run whose lease lapsed stops before it references packs that may be gone.
   */
  holdWith(lock: { assertHeld(): void }): void {
    this.lock = lock;
  }

  /** Throws LockLostError when the lock given to holdWith has lapsed. */
  assertLockHeld(): void {
    this.lock?.assertHeld();
  }

  /** Writes an index file and returns its name. */
  async writeIndex(contents: IndexContents, listings: Buffer[] = []): Promise<string> {
    this.assertLockHeld();
    const sealed = sealFile(this.key.encKey, 'index', encodeIndex(contents, listings));
    const name = createHash('sha256').update(sealed).digest('hex');
    await this.backend.put(`index/${name}`, sealed);
    return name;
  }

  /** Keyed id of a plaintext blob. */
  id(data: Uint8Array): Buffer {
    return blobId(this.key.macKey, data);
  }

  /** Reads, authenticates and re-hashes one blob. */
  async readBlob(id: Buffer, loc: BlobLocation | null = this.index.get(id)): Promise<Buffer> {
    if (!loc) throw new DamagedBlobError(`blob ${id.toString('hex')} is not in the index`);
    const sealed = await this.backend.getRange(packName(loc.pack), loc.offset, loc.length);
    return this.verifyBlob(id, sealed);
  }

  /** Opens a sealed blob and checks that its plaintext hashes back to its id. */
  verifyBlob(id: Buffer, sealed: Buffer): Buffer {
    const plain = openBlob(this.key.encKey, id, sealed);
    if (!this.id(plain).equals(id)) throw new DamagedBlobError(`blob ${id.toString('hex')} does not match its id`);
    return plain;
  }

  /** Writes an encrypted JSON metadata file under `dir/`; returns its name. */
  async putJson(dir: string, kind: string, value: unknown): Promise<string> {
    this.assertLockHeld();
    const name = newName();
    await this.backend.put(`${dir}/${name}`, sealFile(this.key.encKey, kind, Buffer.from(JSON.stringify(value))));
    return name;
  }

  /** Reads an encrypted JSON metadata file. */
  async getJson<T>(path: string, kind: string): Promise<T> {
    return JSON.parse(openFile(this.key.encKey, kind, await this.backend.get(path)).toString('utf8')) as T;
  }
}
