import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
// s3rver ships no types.
// @ts-expect-error no declaration file
import S3rver from 's3rver';
import { createBucket, s3Client } from '../src/storage/s3-blob-store.js';

export interface TestS3 {
  endpoint: string;
  client: S3Client;
  /** Environment for startServer: endpoint and credentials of this s3rver. */
  env: Record<string, string>;
  /** Creates a bucket with a fresh name; answers the name. */
  bucket: () => Promise<string>;
  close: () => Promise<void>;
}

let buckets = 0;

/**
 * Starts s3rver on 127.0.0.1 with a random port and a temporary directory. It never
 * skips: a failure to start fails the suite.
 */
export async function startS3(): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const address = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${address.port}`;
  const connection = { endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true };
  const client = s3Client(connection);
  return {
    endpoint,
    client,
    env: {
      BOGWAN_S3_ENDPOINT: endpoint,
      BOGWAN_S3_ACCESS_KEY_ID: 'S3RVER',
      BOGWAN_S3_SECRET_ACCESS_KEY: 'S3RVER',
      BOGWAN_S3_FORCE_PATH_STYLE: 'true',
    },
    bucket: async () => {
      const name = `bogwan-test-${process.pid}-${++buckets}`;
      await createBucket(client, name);
      return name;
    },
    close: async () => {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
