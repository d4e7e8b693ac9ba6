import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.js';
import { requireDecorators } from '../../http/wiring.js';
import type { HousekeepingTask } from '../../jobs/housekeeping.js';
import { SearchIndexer } from './search.indexer.js';
import { SearchRepo } from './search.repo.js';
import { searchRoutes } from './search.routes.js';
import { SearchService } from './search.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Background text extraction for search (tests wait on it with `idle()`). */
    searchIndex: SearchIndexer;
  }
}

/**
 * Wires the keyword search and its background indexer. Needs `fileTree`, `fileAccess`,
 * and `blobStores`; listens for files the tree adds, sweeps for missed ones once
 * the server is ready, and answers the hourly housekeeping work.
 */
export async function registerSearch(app: FastifyInstance, deps: { db: Db }): Promise<{ housekeeping: HousekeepingTask[] }> {
  requireDecorators(app, 'search', ['fileTree', 'fileAccess', 'blobStores']);
  const repo = new SearchRepo(deps.db);
  const indexer = new SearchIndexer(repo, () => app.blobStores, app.log);
  app.decorate('searchIndex', indexer);
  app.fileTree.onFileAdded(indexer.fileAdded);
  await app.register(searchRoutes, { search: new SearchService(repo, () => app.fileAccess) });
  app.addHook('onReady', async () => {
    void indexer.sweep();
  });
  app.addHook('onClose', async () => indexer.close());
  return {
    housekeeping: [
      { name: 'search texts', run: async () => void (await repo.deleteOrphanTexts()) },
      { name: 'search sweep', run: () => indexer.sweep() },
    ],
  };
}
