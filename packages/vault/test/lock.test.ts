import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lock, LockedError, type LockRecord } from '../src/lock.js';
import { localKind, s3Kind } from './helpers.js';

function deadPid(): number {
  // A child that has exited: its pid names no live process.
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

function record(over: Partial<LockRecord>): Buffer {
  const now = Date.now();
  return Buffer.from(JSON.stringify({ host: 'other-host', pid: 1, exclusive: true, operation: 'prune', created: new Date(now).toISOString(), expires: new Date(now + 3_600_000).toISOString(), ...over }));
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
});
