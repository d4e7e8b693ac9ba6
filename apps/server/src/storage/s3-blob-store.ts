import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { isUnreachable } from '@bogwan/vault';
import {
  assertKey,
  assertUploadId,
  BlobMissingError,
  type BlobStore,
  type ByteRange,
  type StagedUpload,
  StorageUnavailableError,
  type StoredBlob,
  type UploadStaging,
} from './blob-store.js';

/** Where the bucket is and how to sign in to it (from the environment; the bucket name is a setting). */
export interface S3Connection {
  endpoint: string | undefined;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
}

const UPLOADS = 'uploads/';
/** The SHA-256 a blob key names (`ab/cd/<hash>`). */
const BLOB_KEY_HASH = /^[0-9a-f]{2}\/[0-9a-f]{2}\/([0-9a-f]{64})$/;
/** Parts of a multipart upload: 8 MiB, two in flight, so one write holds at most ~24 MiB. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

/** A client for an S3-compatible endpoint. Checksums only where the API requires them, for endpoints without the newer trailers. */
export function s3Client(connection: S3Connection): S3Client {
  return new S3Client({
    region: connection.region,
    endpoint: connection.endpoint,
    forcePathStyle: connection.forcePathStyle,
    credentials:
      connection.accessKeyId && connection.secretAccessKey ? { accessKeyId: connection.accessKeyId, secretAccessKey: connection.secretAccessKey } : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A bucket that does not take the connection fails the call instead of holding the
    // request for the system's TCP timeout. (No idle timeout: a download paused by its
    // reader pauses the bucket's socket too.)
    requestHandler: { connectionTimeout: 10_000 },
    // Without a logger of its own the SDK writes to the console when a streamed PUT fails;
    // that failure reaches the caller, which answers and logs it.
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
}

/** A DeleteObject answers in milliseconds; one that hangs this long fails (and is tried again later). */
const DELETE_TIMEOUT_MS = 30_000;

/** Awaits a call to the bucket; a failure to reach it becomes StorageUnavailableError. */
async function reaching<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw unavailableOr(error);
  }
}

function unavailableOr(error: unknown): unknown {
  return isUnreachable(error) ? new StorageUnavailableError(error) : error;
}

/**
 * True when the bucket exists and these credentials may use it (HeadBucket). An endpoint
 * that cannot be reached says nothing about the bucket: StorageUnavailableError.
 */
export async function bucketExists(client: S3Client, bucket: string): Promise<boolean> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
    return true;
  } catch (error) {
    if (isUnreachable(error)) throw new StorageUnavailableError(error);
    return false;
  }
}

/** Creates a bucket (tests and first-time set-up of a test endpoint). */
export async function createBucket(client: S3Client, bucket: string): Promise<void> {
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
}

/**
 * Blobs as objects of one bucket (setting `cloud.bucket`). A PUT is atomic in S3: an
 * object appears complete or not at all, so no temporary name is needed; large bodies
 * go up as a multipart upload that is aborted when the stream fails.
 */
export class S3BlobStore implements BlobStore {
  readonly backend = 'cloud' as const;
  readonly staging: UploadStaging;

  constructor(
    readonly client: S3Client,
    readonly bucket: string,
  ) {
    this.staging = new S3Staging(this);
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    assertKey(key);
    return this.upload(key, body);
  }

  /** Streams a body of unknown length into `key`; bounded memory (PART_SIZE × QUEUE_SIZE). */
  async upload(key: string, body: Readable): Promise<{ size: number }> {
    let size = 0;
    const counted = new PassThrough({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        callback(null, chunk);
      },
    });
    let failure: unknown;
    body.once('error', (error) => {
      failure = error;
      counted.destroy(error);
    });
    body.pipe(counted);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counted },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      throw failure ?? unavailableOr(error);
    }
    if (failure) {
      // The source failed after the last part went up: the object must not stay.
      await this.delete(key).catch(() => {});
      throw failure;
    }
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertKey(key);
    if (range && range.end < range.start) return Readable.from([]);
    try {
      const answer = await reaching(
        this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined })),
      );
      return answer.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw new BlobMissingError(key);
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    assertKey(key);
    try {
      const head = await reaching(this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertKey(key);
    // Bounded: the blob collector deletes inside the transaction that holds the blob's row.
    const abortSignal = AbortSignal.timeout(DELETE_TIMEOUT_MS);
    await reaching(this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }), { abortSignal }));
  }

  async *list(prefix: string): AsyncIterable<StoredBlob> {
    for await (const object of this.objects(prefix)) {
      if (!object.key.startsWith(UPLOADS)) yield object;
    }
  }

  /** Every object under a prefix with its time, page by page. */
  async *objects(prefix: string): AsyncIterable<StoredBlob> {
    let token: string | undefined;
    do {
      const page = await reaching(this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix || undefined, ContinuationToken: token })));
      for (const object of page.Contents ?? []) {
        if (object.Key) yield { key: object.Key, modified: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async healthy(): Promise<boolean> {
    return bucketExists(this.client, this.bucket).catch(() => false);
  }

  /** Deletes keys in batches of 1,000 (DeleteObjects). */
  async deleteMany(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      await reaching(this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } })));
    }
  }
}

/**
 * Each chunk is its own object, `uploads/<id>/<index>`, written with one PUT of known
 * length (a short or failed body fails the PUT, so a chunk is whole or absent). Commit
 * streams the chunks in order into the blob key, then deletes them.
 */
class S3Staging implements UploadStaging {
  constructor(private readonly store: S3BlobStore) {}

  private prefixOf(uploadId: string): string {
    assertUploadId(uploadId);
    return `${UPLOADS}${uploadId}/`;
  }

  private keyOf(uploadId: string, index: number): string {
    return `${this.prefixOf(uploadId)}${String(index).padStart(7, '0')}`;
  }

  async writeChunk(uploadId: string, index: number, _offset: number, length: number, body: AsyncIterable<Buffer>): Promise<{ size: number }> {
    const key = this.keyOf(uploadId, index);
    let size = 0;
    const counted = new PassThrough({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        callback(null, chunk);
      },
    });
    // A failed body must abort the PUT: the request then never completes, so no object appears.
    const abort = new AbortController();
    const piping = pipeline(body, counted).catch((error: unknown) => {
      abort.abort(error);
      throw error;
    });
    const sending = this.store.client
      .send(new PutObjectCommand({ Bucket: this.store.bucket, Key: key, Body: counted, ContentLength: length }), { abortSignal: abort.signal })
      .catch((error: unknown) => {
        // The bucket failed the PUT and reads no more: the rest of the chunk is read and
        // dropped, so the request ends and can be answered (else it would wait forever).
        counted.unpipe();
        counted.resume();
        throw error;
      });
    const [piped, sent] = await Promise.allSettled([piping, sending]);
    if (piped.status === 'rejected') throw piped.reason;
    if (sent.status === 'rejected') throw unavailableOr(sent.reason);
    return { size };
  }

  async scanChunk(uploadId: string, index: number, _offset: number, _length: number, visit: (piece: Buffer) => void): Promise<number> {
    let done = 0;
    for await (const piece of await this.store.get(this.keyOf(uploadId, index))) {
      visit(piece as Buffer);
      done += (piece as Buffer).length;
    }
    return done;
  }

  async read(uploadId: string, chunkCount: number, _size: number): Promise<Readable> {
    const keys = Array.from({ length: chunkCount }, (_, i) => this.keyOf(uploadId, i));
    // Fail early when a chunk is missing, before any byte is answered.
    const first = keys.length > 0 ? await this.store.get(keys[0]!) : null;
    const store = this.store;
    async function* chunks(): AsyncIterable<Buffer> {
      for (let i = 0; i < keys.length; i++) {
        const part = i === 0 ? first! : await store.get(keys[i]!);
        for await (const piece of part) yield piece as Buffer;
      }
    }
    return Readable.from(chunks());
  }

  async commit(uploadId: string, chunkCount: number, size: number, key: string): Promise<void> {
    assertKey(key);
    // The copy is hashed on its way: a blob key names the SHA-256 of the bytes under it, so
    // bytes that differ from the hash the upload computed (a chunk object replaced after it was
    // hashed) never stay under that key.
    const hash = createHash('sha256');
    const hashed = new PassThrough({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    const staged = await this.read(uploadId, chunkCount, size);
    staged.once('error', (error) => hashed.destroy(error));
    const written = await this.store.upload(key, staged.pipe(hashed));
    const named = BLOB_KEY_HASH.exec(key)?.[1];
    const digest = hash.digest('hex');
    if (written.size !== size || (named !== undefined && digest !== named)) {
      await this.store.delete(key);
      throw new Error(`staged upload ${uploadId} holds ${written.size} bytes with SHA-256 ${digest}, expected ${size} bytes under ${key}`);
    }
    await this.discard(uploadId);
  }

  async discard(uploadId: string): Promise<void> {
    const keys: string[] = [];
    for await (const object of this.store.objects(this.prefixOf(uploadId))) keys.push(object.key);
    await this.store.deleteMany(keys);
  }

  async *list(): AsyncIterable<StagedUpload> {
    const latest = new Map<string, Date>();
    for await (const object of this.store.objects(UPLOADS)) {
      const uploadId = object.key.slice(UPLOADS.length).split('/')[0]!;
      const seen = latest.get(uploadId);
      if (!seen || seen < object.modified) latest.set(uploadId, object.modified);
    }
    for (const [uploadId, modified] of latest) yield { uploadId, modified };
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}
