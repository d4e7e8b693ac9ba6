import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { backup } from '../src/backup.js';
import { Lock, LockedError, LockLostError, type LockRecord } from '../src/lock.js';
import { Repository } from '../src/repository.js';
import { listSnapshots } from '../src/snapshot.js';
import { walkPaths } from '../src/source.js';
import { localKind, makeTree, s3Kind, TEST_INIT, tempDir } from './helpers.js';

function deadPid(): number {
  // A child that has exited: its pid names no live process.
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

function record(over: Partial<LockRecord>): Buffer {
  const now = Date.now();
  return Buffer.from(
    JSON.stringify({
      host: 'other-host',
      pid: 1,
      exclusive: true,
      operation: 'prune',
      created: new Date(now).toISOString(),
      expires: new Date(now + 3_600_000).toISOString(),
      ...over,
    }),
  );
}

describe.each([localKind(), s3Kind()])('locks on $name', (kind) => {
  beforeAll(() => kind.setup());
  afterAll(() => kind.teardown());

  it('a live exclusive lock blocks; a dead process or an expired lease does not', async () => {
    const backend = await kind.make();
    await backend.put('locks/live', record({}));
    await expect(Lock.acquire(backend, 'backup', false)).rejects.toBeInstanceOf(LockedError);
    await backend.delete('locks/live');

    await backend.put('locks/dead', record({ host: hostname(), pid: deadPid() }));
    await backend.put('locks/expired', record({ expires: new Date(Date.now() - 1000).toISOString() }));
    const lock = await Lock.acquire(backend, 'prune', true);
    expect((await backend.list('locks/')).map((f) => f.name)).toHaveLength(1);
    await lock.release();
    expect(await backend.list('locks/')).toEqual([]);
  });

  it('shared locks coexist, an exclusive one waits for them, and a lease expires unless refreshed', async () => {
    const backend = await kind.make();
    const a = await Lock.acquire(backend, 'backup', false);
    const b = await Lock.acquire(backend, 'restore', false);
    await expect(Lock.acquire(backend, 'prune', true)).rejects.toThrow(/locked/);
    await a.release();
    await b.release();
    // A lease of 300 ms held by another host (so no pid check applies) that is never refreshed.
    await backend.put('locks/short', record({ expires: new Date(Date.now() + 300).toISOString() }));
    await expect(Lock.acquire(backend, 'prune', true)).rejects.toBeInstanceOf(LockedError);
    await new Promise((r) => setTimeout(r, 400));
    await (await Lock.acquire(backend, 'prune', true)).release();
  });

  it('a lease that lapsed (the process stood still) is not renewed, and the backup holding it commits nothing', async () => {
    const backend = await kind.make();
    await Repository.init(backend, 'pw', TEST_INIT);
    const repo = await Repository.open(backend, 'pw');
    await repo.loadIndex();
    // A 600 ms lease whose refresh never comes in time, as when the process is suspended.
    const lock = await Lock.acquire(backend, 'backup', false, { leaseMs: 600, refreshMs: 60_000 });
    repo.holdWith(lock);
    await new Promise((r) => setTimeout(r, 650));

    const src = path.join(await tempDir('lapsed'), 'data');
    await makeTree(src);
    await expect(backup(repo, walkPaths([src]), { paths: [src] })).rejects.toBeInstanceOf(LockLostError);
    await expect(lock.refresh()).rejects.toBeInstanceOf(LockLostError);
    const fresh = await Repository.open(backend, 'pw');
    await fresh.loadIndex();
    expect(await listSnapshots(fresh)).toEqual([]);
    expect(fresh.indexFiles).toEqual([]);
    // Another process may take the repository now, exclusively.
    await (await Lock.acquire(backend, 'prune', true)).release();
    await lock.release();
  });
});
