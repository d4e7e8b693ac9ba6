import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import S3rver from 's3rver';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { UnreachableError } from '../src/backend/backend.js';
import { S3Backend } from '../src/backend/s3.js';
import { backup } from '../src/backup.js';
import { check } from '../src/check.js';
import { Repository } from '../src/repository.js';
import { restore } from '../src/restore.js';
import { listSnapshots } from '../src/snapshot.js';
import { walkPaths } from '../src/source.js';
import { describeTree, TEST_INIT, tempDir } from './helpers.js';

const PASSWORD = 'bucket outage';

/** One bucket's store on disk, served by an s3rver that can be stopped and started again on the same port. */
async function bucketHost() {
  const directory = await tempDir('s3rver-outage');
  let server: S3rver | null = null;
  let port = 0;
  const start = async () => {
    for (let tries = 0; ; tries++) {
      server = new S3rver({ port, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: 'vault' }] });
      try {
        port = (await server.run()).port;
        return;
      } catch (err) {
        // The port of the stopped server can take a moment to be free again.
        if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || tries === 50) throw err;
        await sleep(100);
      }
    }
  };
  const stop = async () => {
    await server?.close();
    server = null;
  };
  await start();
  const made: S3Backend[] = [];
  const backend = () => {
    const one = new S3Backend({
      bucket: 'vault',
      prefix: 'repo',
      endpoint: `http://127.0.0.1:${port}`,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      region: 'us-east-1',
    });
    made.push(one);
    return one;
  };
  // Closing a backend removes its spool directory (closing twice does no harm).
  const close = () => Promise.all(made.splice(0).map((b) => b.close()));
  return { start, stop, backend, close };
}

async function makeSource(): Promise<string> {
  const src = path.join(await tempDir('outage-src'), 'data');
  await fs.mkdir(path.join(src, 'a'), { recursive: true });
  await fs.mkdir(path.join(src, 'b'), { recursive: true });
  for (let i = 0; i < FILES; i++) await fs.writeFile(path.join(src, i % 2 ? 'a' : 'b', `file-${i}.bin`), randomBytes(60_000 + i * 997));
  return src;
}

const FILES = 60;

describe('a bucket that becomes unreachable in the middle of a backup', () => {
  let host: Awaited<ReturnType<typeof bucketHost>> | null = null;
  afterEach(async () => {
    await host?.close();
    await host?.stop();
    host = null;
  });

  const open = async () => {
    const repo = await Repository.open(host!.backend(), PASSWORD);
    await repo.loadIndex();
    return repo;
  };
  const expectRestoresAs = async (src: string) => {
    expect((await check(await open(), { readData: true })).errors).toEqual([]);
    const target = await tempDir('outage-restore');
    expect((await restore(await open(), 'latest', target)).failed).toEqual([]);
    expect(await describeTree(path.join(target, 'data'))).toEqual(await describeTree(src));
  };

  it('rides out a bucket that is gone for a second: the backup completes', async () => {
    host = await bucketHost();
    await Repository.init(host.backend(), PASSWORD, TEST_INIT);
    const src = await makeSource();
    let blip: Promise<void> | null = null;
    const result = await backup(await open(), walkPaths([src]), {
      paths: [src],
      checkpointEveryMs: 0,
      onProgress: (stats) => {
        if (stats.filesRead >= 20 && !blip)
          blip = host!
            .stop()
            .then(() => sleep(1000))
            .then(() => host!.start());
      },
    });
    await blip;
    expect(blip).not.toBeNull();
    expect(result.stats.filesRead).toBe(FILES);
    expect((await listSnapshots(await open())).map((s) => Boolean(s.snapshot.checkpoint))).toEqual([false]);
    await expectRestoresAs(src);
  }, 120_000);

  it('fails a backup when the bucket stays away, leaves a usable repository, and the next run resumes', async () => {
    host = await bucketHost();
    await Repository.init(host.backend(), PASSWORD, TEST_INIT);
    const src = await makeSource();

    // The bucket goes away two thirds of the way through, after checkpoints have been written.
    const backend = host.backend();
    const repo = await Repository.open(backend, PASSWORD);
    await repo.loadIndex();
    let stopping: Promise<void> | null = null;
    const started = Date.now();
    const outcome = await backup(repo, walkPaths([src]), {
      paths: [src],
      checkpointEveryMs: 0,
      onProgress: (stats) => {
        if (stats.filesRead >= 40 && !stopping) stopping = host!.stop();
      },
    }).then(
      () => null,
      (err: unknown) => err,
    );
    await stopping;
    await backend.close();
    expect(stopping).not.toBeNull();
    expect(outcome).toBeInstanceOf(UnreachableError);
    expect((outcome as Error).message).toContain('s3://vault/repo could not be reached');
    // The tries end; the backup does not wait forever for a bucket that is gone.
    expect(Date.now() - started).toBeLessThan(60_000);

    // The bucket is back: the repository checks clean, with only the checkpoint in it.
    await host.start();
    expect((await check(await open(), { readData: true })).errors).toEqual([]);
    expect((await listSnapshots(await open())).map((s) => Boolean(s.snapshot.checkpoint))).toEqual([true]);

    // The next run resumes what was stored before the outage and completes.
    const next = await backup(await open(), walkPaths([src]), { paths: [src] });
    expect(next.stats.filesResumed).toBeGreaterThan(0);
    expect(next.stats.filesResumed + next.stats.filesRead).toBe(FILES);
    await expectRestoresAs(src);
  }, 120_000);
});
