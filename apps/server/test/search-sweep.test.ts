import { createHash } from 'node:crypto';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { blankNode } from '../src/modules/files/file-tree.js';
import type { NodeRow } from '../src/modules/files/ports.js';
import { SearchRepo } from '../src/modules/search/search.repo.js';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { upload } from './transfer-helpers.js';

// The sweep (at start and hourly) finds files whose text was never extracted, looking at a
// window of nodes per statement, so a large, nearly all indexed tree is never read in one
// statement. A file missed behind thousands of indexed ones is still found.

const FILLERS = 4500;
const hashOf = (seed: string) => createHash('sha256').update(seed).digest('hex');

describeEachDialect('search sweep on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    expect((await call(server, apiCalls.folder_create, { token: master.token, body: { name: '창고', path: '/' } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('finds a file missed behind thousands of others, window by window, and a second sweep stores nothing', async () => {
    expect((await upload(server, master.token, '/창고', 'missed.txt', Buffer.from('keyword quokkaberry inside'))).status).toBe(200);
    await server.app.searchIndex.idle();
    const missed = (await server.app.fileTree.resolve('/창고/missed.txt'))!;
    // As if the process had stopped before extracting it.
    await server.app.db.deleteFrom('search_texts').where('hash', '=', missed.content_hash!).execute();
    const root = (await server.app.fileTree.resolve('/창고'))!;
    // Files never indexed either, whose ids come before the missed file's (ids sort by time).
    const now = new Date().toISOString();
    const fillers: NodeRow[] = Array.from({ length: FILLERS }, (_, i) => {
      const hash = hashOf(`filler-${i}`);
      const id = `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`;
      return { ...blankNode(root, now), id, name: `filler-${i}.bin`, folder: 0, size: 1, content_hash: hash, blob_key: hash, owner_id: master.user._id };
    });
    for (let i = 0; i < fillers.length; i += 500)
      await server.app.db
        .insertInto('nodes')
        .values(fillers.slice(i, i + 500))
        .execute();
    const searchFor = async () => (await call(server, apiCalls.search_keyword, { token: master.token, query: { keyword: 'quokkaberry' } })).body;
    expect(await searchFor()).toEqual([]);

    const windows = vi.spyOn(SearchRepo.prototype, 'pendingFiles');
    await server.app.searchIndex.sweep();
    // Each statement looked at one window: more than one was needed to reach the last node.
    expect(windows.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(windows.mock.calls[0]![0]).toBe('');
    const hits = await searchFor();
    expect(hits.map((hit: { path: string }) => hit.path)).toEqual(['/창고/missed.txt']);
    const stored = await server.app.db
      .selectFrom('search_texts')
      .select('hash')
      .where('hash', 'in', [missed.content_hash!, hashOf('filler-0'), hashOf(`filler-${FILLERS - 1}`)])
      .execute();
    expect(stored).toHaveLength(3);

    // Everything is indexed: a second sweep walks the windows and stores nothing more.
    const count = async () =>
      Number(
        (
          await server.app.db
            .selectFrom('search_texts')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    windows.mockClear();
    await server.app.searchIndex.sweep();
    expect(windows.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(await count()).toBe(before);
    windows.mockRestore();
  });
});
