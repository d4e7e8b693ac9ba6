// The SDK is loaded on first use: it is large, and the CLI on a local directory should
// not pay its start-up time and memory.
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Backend, NotFoundError, type StoredFile, UnreachableError } from './backend.js';
import { FileSpool, type Spool } from './spool.js';

/** Connection settings for an S3-compatible bucket. */
export interface S3Options {
  bucket: string;
  prefix: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

// Failures of the way to the bucket: worth another try here, and reported as
// UnreachableError once the tries are used up. The server's file store uses the same test.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);

/** True for a failure of the way to an S3-compatible store rather than an answer from it. */
export function isUnreachable(err: unknown): boolean {
  const e = err as { code?: string; name?: string; $metadata?: { httpStatusCode?: number } };
  if (e.code !== undefined && NETWORK_CODES.has(e.code)) return true;
  if (e.name === 'TimeoutError' || e.name === 'RequestTimeout') return true;
  const status = e.$metadata?.httpStatusCode;
  return status !== undefined && status >= 500;
}

/**
 * Our own tries of a call, each after the SDK's own quick ones, waiting 0.5, 1, 2 and 4 s
 * between them: a backup runs for hours, and the network dropping for a few seconds
 * should not end it. (A PUT whose body is a file stream is never retried by the SDK,
 * which cannot rewind it; each of our tries opens the file afresh.)
 */
const TRIES = 5;
const RETRY_BASE_MS = 500;

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/** A repository under a prefix of an S3-compatible bucket. A single PUT is atomic. */
export class S3Backend implements Backend {
  readonly location: string;
  // Larger packs mean fewer requests, which is what object stores charge and wait for.
  readonly packSize = 32 * 1024 * 1024;
  private readonly config: S3ClientConfig;
  private readonly prefix: string;
  private connection: Promise<{ sdk: typeof import('@aws-sdk/client-s3'); client: S3Client }> | null = null;
  private spoolDir: Promise<string> | null = null;

  constructor(private readonly options: S3Options) {
    this.prefix = options.prefix.replace(/^\/+|\/+$/g, '');
    this.location = `s3://${options.bucket}/${this.prefix}`;
    const config: S3ClientConfig = {
      region: options.region ?? 'us-east-1',
      forcePathStyle: true,
      // A bucket that stops answering (rather than refusing) fails the call instead of
      // holding the run forever.
      requestHandler: { connectionTimeout: 10_000, socketTimeout: 120_000 },
      // Without a logger of its own the SDK writes to the console when a streamed PUT
      // fails; that failure reaches us and is retried or reported by send().
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      // Checksums only where the API requires them: a streamed PUT would otherwise be
      // sent with aws-chunked trailers, which S3-compatible stores without them store as is.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
    if (options.endpoint) config.endpoint = options.endpoint;
    if (options.accessKeyId && options.secretAccessKey) {
      config.credentials = { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey };
    }
    this.config = config;
  }

  private s3(): Promise<{ sdk: typeof import('@aws-sdk/client-s3'); client: S3Client }> {
    this.connection ??= import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: new sdk.S3Client(this.config) }));
    return this.connection;
  }

  /**
   * Makes a call, trying again while the bucket cannot be reached; once the tries are
   * used up that failure becomes UnreachableError. Other errors are thrown as they are.
   */
  private async send<T>(call: (sdk: typeof import('@aws-sdk/client-s3'), client: S3Client) => Promise<T>): Promise<T> {
    const { sdk, client } = await this.s3();
    for (let attempt = 1; ; attempt++) {
      try {
        return await call(sdk, client);
      } catch (err) {
        if (!isUnreachable(err)) throw err;
        if (attempt === TRIES) throw new UnreachableError(this.location, err);
        await sleep(RETRY_BASE_MS * 2 ** (attempt - 1));
      }
    }
  }

  private key(name: string): string {
    return this.prefix ? `${this.prefix}/${name}` : name;
  }

  private async fetch(name: string, range?: string): Promise<Buffer> {
    try {
      const bytes = await this.send(async (sdk, client) => {
        const res = await client.send(new sdk.GetObjectCommand({ Bucket: this.options.bucket, Key: this.key(name), Range: range }));
        return res.Body!.transformToByteArray();
      });
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (err) {
      if (isMissing(err)) throw new NotFoundError(name);
      // Like a short read on disk: a range past the end (a truncated file) yields nothing.
      if (range && (err as { name?: string }).name === 'InvalidRange') return Buffer.alloc(0);
      throw err;
    }
  }

  get(name: string): Promise<Buffer> {
    return this.fetch(name);
  }

  getRange(name: string, offset: number, length: number): Promise<Buffer> {
    if (length === 0) return Promise.resolve(Buffer.alloc(0));
    return this.fetch(name, `bytes=${offset}-${offset + length - 1}`);
  }

  async put(name: string, data: Buffer): Promise<void> {
    await this.send((sdk, client) =>
      client.send(new sdk.PutObjectCommand({ Bucket: this.options.bucket, Key: this.key(name), Body: data, ContentLength: data.length })),
    );
  }

  /** Spooled in a private temporary directory, then sent in one PUT from the file. */
  async spool(): Promise<Spool> {
    this.spoolDir ??= fs.mkdtemp(path.join(tmpdir(), 'bogwan-vault-spool-'));
    const temp = path.join(await this.spoolDir, randomBytes(8).toString('hex'));
    return FileSpool.create(temp, async (synced, name) => {
      const { size } = await fs.stat(synced);
      try {
        await this.send(async (sdk, client) => {
          const body = createReadStream(synced);
          try {
            return await client.send(new sdk.PutObjectCommand({ Bucket: this.options.bucket, Key: this.key(name), Body: body, ContentLength: size }));
          } finally {
            body.destroy(); // a failed try may leave it unread, and open
          }
        });
      } finally {
        await fs.rm(synced, { force: true });
      }
    });
  }

  async list(prefix: string): Promise<StoredFile[]> {
    const out: StoredFile[] = [];
    const full = this.key(prefix);
    const strip = this.prefix ? this.prefix.length + 1 : 0;
    let token: string | undefined;
    do {
      const res = await this.send((sdk, client) =>
        client.send(new sdk.ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: full, ContinuationToken: token })),
      );
      for (const obj of res.Contents ?? []) {
        if (obj.Key) out.push({ name: obj.Key.slice(strip), size: obj.Size ?? 0 });
      }
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  async delete(name: string): Promise<void> {
    await this.send((sdk, client) => client.send(new sdk.DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.key(name) })));
  }

  async stat(name: string): Promise<StoredFile | null> {
    try {
      const res = await this.send((sdk, client) => client.send(new sdk.HeadObjectCommand({ Bucket: this.options.bucket, Key: this.key(name) })));
      return { name, size: res.ContentLength ?? 0 };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async close(): Promise<void> {
    if (this.connection) (await this.connection).client.destroy();
    if (this.spoolDir) await fs.rm(await this.spoolDir, { recursive: true, force: true });
  }
}
