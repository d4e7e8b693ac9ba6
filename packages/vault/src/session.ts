import { openBackend } from './backend/open.js';
import { Lock, type LeaseOptions } from './lock.js';
import { Repository } from './repository.js';

/** Opens a repository, holds a lock for the duration of `work`, then releases both. */
export async function withRepository<T>(
  repoUrl: string,
  password: string,
  operation: string,
  exclusive: boolean,
  work: (repo: Repository) => Promise<T>,
  lease?: LeaseOptions,
): Promise<T> {
  const backend = openBackend(repoUrl);
  try {
    const repo = await Repository.open(backend, password);
    const lock = await Lock.acquire(backend, operation, exclusive, lease);
    repo.holdWith(lock);
    try {
      await repo.loadIndex();
      return await work(repo);
    } finally {
      await lock.release();
    }
  } finally {
    await backend.close();
  }
}
