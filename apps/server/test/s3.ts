import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
// s3rver ships no types.
// @ts-expect-error no declaration file
import S3rver from 's3rver';
import { afterAll, beforeAll } from 'vitest';
import { createBucket, s3Client } from '../src/storage/s3-blob-store.js';

export interface TestS3 {
  endpoint: string;
  client: S3Client;
  /** Environment for startServer: endpoint and credentials of this s3rver. */
  env: Record<string, string>;
  /** Creates a bucket with a fresh name; answers the name. */
  bucket: () => Promise<string>;
  /** Stops answering (connections are refused) until `resume`; the buckets are kept. */
  stop: () => Promise<void>;
  /** Serves the same buckets again on the same port. */
  resume: () => Promise<void>;
  close: () => Promise<void>;
}

let buckets = 0;

/**
 * Starts s3rver on 127.0.0.1 with a random port and a temporary directory. It never
 * skips: a failure to start fails the suite.
 */
export async function startS3(): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-s3-'));
  let server: { close: () => Promise<void> } | null = null;
  let port = 0;
  const listen = async () => {
    for (let tries = 0; ; tries++) {
      const next = new S3rver({ address: '127.0.0.1', port, silent: true, directory });
      try {
        port = ((await next.run()) as { port: number }).port;
        server = next;
        return;
      } catch (err) {
        // The port of a stopped server can take a moment to be free again.
        if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || tries === 50) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const stop = async () => {
    await server?.close();
    server = null;
  };
  await listen();
  const endpoint = `http://127.0.0.1:${port}`;
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
    stop,
    resume: listen,
    close: async () => {
      client.destroy();
      await stop();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** One s3rver for the whole test file (started before its suites, closed after them); answers a getter. */
export function useS3(): () => TestS3 {
  let s3: TestS3 | undefined;
  beforeAll(async () => {
    s3 = await startS3();
  });
  afterAll(async () => {
    await s3?.close();
  });
  return () => {
    if (!s3) throw new Error('s3rver is not started yet');
    return s3;
  };
}
