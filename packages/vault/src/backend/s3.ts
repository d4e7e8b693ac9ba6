import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { type Backend, NotFoundError, type StoredFile } from './backend.js';

/** Connection settings for an S3-compatible bucket. */
export interface S3Options {
  bucket: string;
  prefix: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/** A repository under a prefix of an S3-compatible bucket. A single PUT is atomic. */
export class S3Backend implements Backend {
  readonly location: string;
  // Larger packs mean fewer requests, which is what object stores charge and wait for.
  readonly packSize = 32 * 1024 * 1024;
  private readonly client: S3Client;
  private readonly prefix: string;

  constructor(private readonly options: S3Options) {
    this.prefix = options.prefix.replace(/^\/+|\/+$/g, '');
    this.location = `s3://${options.bucket}/${this.prefix}`;
    const config: S3ClientConfig = {
      region: options.region ?? 'us-east-1',
      forcePathStyle: true,
    };
    if (options.endpoint) config.endpoint = options.endpoint;
    if (options.accessKeyId && options.secretAccessKey) {
      config.credentials = { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey };
    }
    this.client = new S3Client(config);
  }

  private key(name: string): string {
    return this.prefix ? `${this.prefix}/${name}` : name;
  }

  private async fetch(name: string, range?: string): Promise<Buffer> {
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: this.key(name), Range: range }),
      );
      const bytes = await res.Body!.transformToByteArray();
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
    await this.client.send(
      new PutObjectCommand({ Bucket: this.options.bucket, Key: this.key(name), Body: data, ContentLength: data.length }),
    );
  }

  async list(prefix: string): Promise<StoredFile[]> {
    const out: StoredFile[] = [];
    const full = this.key(prefix);
    const strip = this.prefix ? this.prefix.length + 1 : 0;
    let token: string | undefined;
    do {
      const res = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: full, ContinuationToken: token }),
      );
      for (const obj of res.Contents ?? []) {
        if (obj.Key) out.push({ name: obj.Key.slice(strip), size: obj.Size ?? 0 });
      }
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  async delete(name: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.key(name) }));
  }

  async stat(name: string): Promise<StoredFile | null> {
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.key(name) }));
      return { name, size: res.ContentLength ?? 0 };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
