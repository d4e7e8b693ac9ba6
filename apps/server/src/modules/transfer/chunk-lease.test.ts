import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChunkLease, LEASE_TTL_MS, LeaseLostError } from './chunk-lease.js';
import type { TransferRepo } from './transfer.repo.js';

/** A repository whose lease renewals answer what the test says (or never). */
function repoWith(renew: () => Promise<boolean>) {
  const calls = { renewals: 0, released: 0 };
  const repo = {
    takeLease: async () => 'taken' as const,
    renewLease: () => {
      calls.renewals++;
      return renew();
    },
    releaseLease: async () => {
      calls.released++;
    },
  } as unknown as TransferRepo;
  return { repo, calls };
}

/** Pieces handed out one by one when the test asks, each through the lease's guard first (as a chunk's source taps them). */
async function guarded(lease: ChunkLease) {
  const tap = lease.guard();
  const source = (async function* () {
    for (;;) {
      const piece = Buffer.from('x');
      tap(piece);
      yield piece;
    }
  })();
  return () => source.next();
}

describe('chunk writer lease', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps a writer writing while its renewals succeed, however long the write takes', async () => {
    const { repo, calls } = repoWith(async () => true);
    const lease = (await ChunkLease.take(repo, 'session', 0, 'token')) as ChunkLease;
    const next = await guarded(lease);
    for (let i = 0; i < 10; i++) {
      expect((await next()).done).toBe(false);
      await vi.advanceTimersByTimeAsync(LEASE_TTL_MS / 2);
    }
    expect(calls.renewals).toBeGreaterThanOrEqual(10);
    lease.stop();
  });

  it('stops a writer before its next piece once another writer has taken the chunk over', async () => {
    const { repo } = repoWith(async () => false);
    const lease = (await ChunkLease.take(repo, 'session', 0, 'token')) as ChunkLease;
    const next = await guarded(lease);
    expect((await next()).done).toBe(false);
    await vi.advanceTimersByTimeAsync(LEASE_TTL_MS / 5 + 1);
    expect(lease.alive).toBe(false);
    await expect(next()).rejects.toBeInstanceOf(LeaseLostError);
    await lease.release();
  });

  it('stops a writer whose renewals get no answer before its lease could look expired to another process', async () => {
    const { repo } = repoWith(() => new Promise<boolean>(() => {}));
    const lease = (await ChunkLease.take(repo, 'session', 0, 'token')) as ChunkLease;
    const next = await guarded(lease);
    await vi.advanceTimersByTimeAsync(LEASE_TTL_MS / 2 - 1);
    expect((await next()).done).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    await expect(next()).rejects.toBeInstanceOf(LeaseLostError);
    lease.stop();
  });
});
