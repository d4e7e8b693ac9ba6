import { apiCalls, type SearchQuery } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { upload } from './transfer-helpers.js';

/** The search call of the web app (`/api`) and its twin for assistants (`/llm`). */
const searchCalls = { '/api': apiCalls.search_keyword, '/llm': apiCalls.search_keyword_llm } as const;
type Filters = Omit<SearchQuery, 'keyword'>;

/** What search may tell about files the caller may not open: secure (locked) folders and per-item permissions. */
describeEachDialect('search and access on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let user: Awaited<ReturnType<typeof signInAs>>;

  const found = async (keyword: string, token: string, extra: Filters = {}, prefix: keyof typeof searchCalls = '/api') => {
    const res = await call(server, searchCalls[prefix], { token, query: { keyword, ...extra } });
    expect(res.status, `${prefix} ${keyword} ${JSON.stringify(extra)}`).toBe(200);
    return { text: res.text, hits: res.body.map((h) => `${h.match}:${h.path}`), snippets: res.body.map((h) => h.snippet) };
  };
  const folder = async (path: string, name: string) =>
    expect((await call(server, apiCalls.folder_create, { token: master.token, body: { name, path } })).status).toBe(200);
  const put = async (path: string, name: string, text: string) => expect((await upload(server, master.token, path, name, Buffer.from(text))).status).toBe(200);
  const lock = async (path: string, locked: boolean) =>
    expect((await call(server, apiCalls.file_lock, { token: master.token, body: { path, lock: locked } })).body.lock).toBe(locked);

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    user = await signInAs(server, 'user@example.com');
    await folder('/', 'Sealed');
    await folder('/Sealed', 'Inner');
    await folder('/', 'Open');
    await put('/Sealed', 'ledger.txt', 'quokkavault: secret salary figures');
    await put('/Sealed/Inner', 'deeper.txt', 'quokkavault: hidden merger plan');
    await put('/Open', 'open-ledger.txt', 'quokkavault: the public price list');
    // The same bytes inside and outside the lock share one stored text.
    await put('/Sealed', 'twin.txt', 'platypusword shared passage');
    await put('/Open', 'twin.txt', 'platypusword shared passage');
    await server.app.searchIndex.idle();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('finds files in a locked folder by their name only, never by or with their contents, for everyone', async () => {
    // Before the lock, every file is found by its content.
    expect((await found('quokkavault', user.token)).hits).toHaveLength(3);
    await lock('/Sealed', true);
    try {
      for (const token of [user.token, master.token]) {
        for (const prefix of ['/api', '/llm'] as const) {
          const { hits, text } = await found('quokkavault', token, {}, prefix);
          expect(hits).toEqual(['content:/Open/open-ledger.txt']);
          expect(text).not.toContain('salary');
          expect(text).not.toContain('merger');
          expect(text).not.toContain('/Sealed');
        }
        // The results page's call, with its filters, tells no more.
        const filters: Filters[] = [{ limit: 200 }, { limit: 200, type: 'text' }, { limit: 200, folder: '/Sealed' }, { limit: 200, from: '2000-01-01' }];
        for (const extra of filters) {
          const { hits, text } = await found('quokkavault', token, extra);
          expect(
            hits.filter((h) => h.includes('/Sealed')),
            JSON.stringify(extra),
          ).toEqual([]);
          expect(text, JSON.stringify(extra)).not.toMatch(/salary|merger/);
        }
        expect((await found('platypusword', token)).hits).toEqual(['content:/Open/twin.txt']);
      }
      // Names stay visible, as in a listing: the name match carries the name, not a passage.
      const byName = await found('ledger', user.token);
      expect(byName.hits).toEqual(expect.arrayContaining(['name:/Sealed/ledger.txt', 'name:/Open/open-ledger.txt']));
      expect(byName.snippets).toEqual(expect.arrayContaining(['ledger.txt']));
      expect(byName.text).not.toContain('salary');
      expect((await found('deeper', user.token)).hits).toEqual(['name:/Sealed/Inner/deeper.txt']);
    } finally {
      await lock('/Sealed', false);
    }
    // Unlocked, the contents are found again.
    expect((await found('quokkavault', user.token)).hits).toHaveLength(3);
  });

  it('follows per-item permission entries: an unreadable neighbour never appears, nor a passage of it', async () => {
    await folder('/', 'Shelf');
    await folder('/Shelf', 'Left');
    await folder('/Shelf', 'Right');
    await put('/Shelf/Left', 'left-memo.txt', 'wombatword left passage');
    await put('/Shelf/Right', 'right-memo.txt', 'wombatword right passage');
    await server.app.searchIndex.idle();
    const reader = await signInAs(server, 'reader@example.com');
    const grant = (path: string, permissions: string[]) =>
      call(server, apiCalls.resource_update, { token: master.token, body: { path, users: [{ entity: reader.user._id, permissions }] } });
    expect((await found('wombatword', reader.token)).hits).toHaveLength(2);

    expect((await grant('/Shelf/Left', ['READ'])).status).toBe(200);
    expect((await grant('/Shelf/Right', [])).status).toBe(200);
    for (const prefix of ['/api', '/llm'] as const) {
      const { hits, text } = await found('wombatword', reader.token, { limit: 200 }, prefix);
      expect(hits).toEqual(['content:/Shelf/Left/left-memo.txt']);
      expect(text).toContain('left passage');
      expect(text).not.toContain('right passage');
      expect(text).not.toContain('right-memo');
    }
    expect((await found('right-memo', reader.token)).hits).toEqual([]);
    expect((await found('Right', reader.token, { type: 'folder' })).hits).toEqual([]);
    // Another user without the entries, and the administrator, still find both.
    expect((await found('wombatword', user.token)).hits).toHaveLength(2);
    expect((await found('wombatword', master.token)).hits).toHaveLength(2);
  });
});
