import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { apiCalls, type SearchQuery, type SearchResult } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SettingsRepo } from '../src/modules/settings/settings.repo.js';
import { blobKeyOf } from '../src/storage/blob-store.js';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { makeDocx, makeHwpx, makePdf, makeXlsx, sample } from './search-fixtures.js';
import { upload } from './transfer-helpers.js';

type Filters = Omit<SearchQuery, 'keyword'>;

describeEachDialect('search on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let user: Awaited<ReturnType<typeof signInAs>>;

  const search = (keyword: string, token = user.token, extra: Filters = {}) => call(server, apiCalls.search_keyword, { token, query: { keyword, ...extra } });
  const searchRefused = (keyword: string, token = user.token, extra: Filters = {}) =>
    callRefused(server, apiCalls.search_keyword, { token, query: { keyword, ...extra } });
  const hits = async (keyword: string, token = user.token, extra: Filters = {}): Promise<SearchResult[]> => (await search(keyword, token, extra)).body;
  const names = async (keyword: string, extra: Filters = {}) => (await hits(keyword, user.token, extra)).map((h) => `${h.match}:${h.path}`);
  const put = async (folder: string, name: string, data: Buffer) => {
    const res = await upload(server, master.token, folder, name, data);
    if (res.status !== 200) throw new Error(`upload ${name}: ${res.status} ${res.text}`);
  };

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    user = await signInAs(server, 'user@example.com');
    for (const [path, name] of [
      ['/', '팀'],
      ['/팀', '문서'],
      ['/', 'Archive'],
    ] as const) {
      const res = await call(server, apiCalls.folder_create, { token: master.token, body: { name, path } });
      expect(res.status).toBe(200);
    }
    await put('/팀/문서', 'noori.hwp', sample('noori.hwp'));
    await put('/팀/문서', 'basicsReport.hwp', sample('basicsReport.hwp'));
    await put('/팀', 'budget.pdf', makePdf(['Quarterly budget for zanzibar', 'second page line']));
    await put('/팀', 'minutes.docx', await makeDocx(['주간 회의록', '결재 문서는 금요일까지 제출']));
    await put('/팀', 'stock.xlsx', await makeXlsx(['재고현황 요약', '품목'], [31337]));
    await put('/팀', 'plan.hwpx', await makeHwpx(['2027 사업계획서 초안']));
    await put('/팀', 'zanzibar-trip.txt', Buffer.from('travel notes'));
    await put('/팀', 'syntax.txt', Buffer.from('say "hi" to *star* and NEAR-term with -dash; 100% sure; a_b done'));
    await put('/팀', 'photo.png', randomBytes(2048));
    await put('/Archive', 'old-notes.txt', Buffer.from('archived zanzibar memo 누리호'));
    await server.app.searchIndex.idle();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('finds a word inside an HWP file by two Korean syllables, with the passage around it', async () => {
    const found = await hits('누리');
    const noori = found.find((h) => h.name === 'noori.hwp');
    expect(noori).toMatchObject({ match: 'content', path: '/팀/문서/noori.hwp', folder: false });
    expect(noori!.snippet).toContain('누리');
    expect(noori!.snippet.length).toBeLessThanOrEqual(160);
    // Two syllables also match inside longer words (n-grams, no spaces needed).
    expect(await names('누리')).toEqual(['content:/Archive/old-notes.txt', 'content:/팀/문서/noori.hwp']);
  });

  it('reads PDF, DOCX, XLSX, HWPX and HWP contents', async () => {
    expect(await names('사업계획서')).toEqual(['content:/팀/plan.hwpx']);
    expect(await names('결재 문서')).toEqual(['content:/팀/minutes.docx']);
    expect(await names('재고현황')).toEqual(['content:/팀/stock.xlsx']);
    expect(await names('31337')).toEqual(['content:/팀/stock.xlsx']);
    expect(await names('리포트의 제목')).toEqual(['content:/팀/문서/basicsReport.hwp']);
    expect((await hits('quarterly BUDGET')).map((h) => h.snippet)).toEqual([expect.stringContaining('Quarterly budget for zanzibar')]);
  });

  it('ranks name matches before content matches, the same on both databases', async () => {
    expect(await names('zanzibar')).toEqual(['name:/팀/zanzibar-trip.txt', 'content:/Archive/old-notes.txt', 'content:/팀/budget.pdf']);
    expect(await names('문서')).toEqual(['name:/팀/문서', 'content:/팀/minutes.docx', 'content:/팀/문서/basicsReport.hwp']);
    // Two ASCII characters: case-insensitive, by name and by content.
    expect(await names('ZA')).toEqual(['name:/팀/zanzibar-trip.txt', 'content:/Archive/old-notes.txt', 'content:/팀/budget.pdf']);
  });

  it('refuses keywords of 1 and of 51 characters; 2 and 50 are fine', async () => {
    for (const keyword of ['누', 'a', ' a ', 'x'.repeat(51), '가'.repeat(51)]) {
      const res = await searchRefused(keyword);
      expect(res.status, keyword).toBe(400);
      expect(res.body.message).toBe('search_keyword_length');
    }
    // Without the keyword the contract requires: raw on purpose.
    expect((await server.request('GET', '/api/search/keyword', { token: user.token })).body.message).toBe('search_keyword_length');
    expect((await search('x'.repeat(50))).status).toBe(200);
    expect((await search('가'.repeat(50))).status).toBe(200);
  });

  it('takes FTS syntax and SQL-looking input as plain text', async () => {
    expect(await names('"hi"')).toEqual(['content:/팀/syntax.txt']);
    expect(await names('*star*')).toEqual(['content:/팀/syntax.txt']);
    expect(await names('NEAR-term')).toEqual(['content:/팀/syntax.txt']);
    expect(await names('-dash')).toEqual(['content:/팀/syntax.txt']);
    expect(await names('100%')).toEqual(['content:/팀/syntax.txt']);
    expect(await names('a_b')).toEqual(['content:/팀/syntax.txt']);
    // Wildcards and operators match nothing they are not literally part of.
    for (const keyword of ['zan*', 'zanzibar NEAR budget', '""', '"""', '**', '%%', '__', 'z%r', 'budget -zanzibar', 'NEAR(zanzibar budget)']) {
      const res = await search(keyword);
      expect(res.status, keyword).toBe(200);
      expect(res.body, keyword).toEqual([]);
    }
    for (const keyword of ["' OR 1=1 --", "'; DROP TABLE nodes; --", "zanzibar' OR '1'='1", '") OR ("a"="a']) {
      const res = await search(keyword);
      expect(res.status, keyword).toBe(200);
      expect(res.body, keyword).toEqual([]);
    }
    expect(await names('zanzibar')).toHaveLength(3);
  });

  it('answers the caller only what they may read: never a match nor its snippet from another file', async () => {
    const settings = new SettingsRepo(server.app.db);
    const before = await settings.get<{ user: string[]; admin: string[] }>('permission');
    expect((await hits('누리')).length).toBe(2);
    try {
      await settings.set('permission', { ...before, user: (before?.user ?? []).filter((p) => p !== 'READ') });
      const res = await search('누리');
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      expect(res.text).not.toContain('누리');
      // The administrator still finds them.
      expect((await hits('누리', master.token)).length).toBe(2);
    } finally {
      await settings.set('permission', before);
    }
  });

  it('ignores a userId in the query and serves the spec path too; needs a signed-in caller', async () => {
    const mine = await hits('누리', user.token, { userId: master.user._id });
    const spec = await call(server, apiCalls.search_keyword_llm, { token: user.token, query: { keyword: '누리', userId: master.user._id } });
    expect(spec.status).toBe(200);
    expect(spec.body).toEqual(mine);
    expect((await callRefused(server, apiCalls.search_keyword, { query: { keyword: 'zanzibar' } })).status).toBe(401);
    expect((await callRefused(server, apiCalls.search_keyword_llm, { query: { keyword: 'zanzibar' } })).status).toBe(401);
  });

  it('filters by type, folder and date', async () => {
    expect(await names('zanzibar', { type: 'pdf' })).toEqual(['content:/팀/budget.pdf']);
    expect(await names('zanzibar', { type: 'text' })).toEqual(['name:/팀/zanzibar-trip.txt', 'content:/Archive/old-notes.txt']);
    expect(await names('문서', { type: 'folder' })).toEqual(['name:/팀/문서']);
    expect(await names('zanzibar', { folder: '/Archive' })).toEqual(['content:/Archive/old-notes.txt']);
    expect(await names('zanzibar', { to: '2000-01-01' })).toEqual([]);
    expect(await names('zanzibar', { from: localDay(new Date()) })).toHaveLength(3);
    // A category the contract does not have: raw on purpose.
    const movie = await server.request('GET', '/api/search/keyword?keyword=zanzibar&type=movie', { token: user.token });
    expect(movie.status, '&type=movie').toBe(400);
    const bad: Filters[] = [
      { from: 'yesterday' },
      { folder: 'relative/path' },
      { from: '2026-02-30' },
      { from: '2026-13-01' },
      { to: '2026-03-06T00:00' },
      { from: '03/06/2026' },
    ];
    for (const filters of bad) {
      const res = await searchRefused('zanzibar', user.token, filters);
      expect(res.status, JSON.stringify(filters)).toBe(400);
    }
  });

  it('takes the date bounds as instants: a file changed at 01:30 in Seoul belongs to that Seoul day', async () => {
    await put('/Archive', 'dawn.txt', Buffer.from('dingodawn'));
    await server.app.searchIndex.idle();
    // 2026-03-06 01:30 in Seoul (UTC+9) is still 2026-03-05 in UTC.
    const mtime = '2026-03-05T16:30:00.000Z';
    await server.app.db.updateTable('nodes').set({ mtime }).where('name', '=', 'dawn.txt').execute();
    const range = (from: string, to: string) => names('dingodawn', { from, to });
    // What a browser in Seoul sends for the day 2026-03-06: the bounds of that local day.
    expect(await range('2026-03-05T15:00:00.000Z', '2026-03-06T14:59:59.999Z')).toEqual(['content:/Archive/dawn.txt']);
    expect(await range('2026-03-06T00:00:00+09:00', '2026-03-06T23:59:59.999+09:00')).toEqual(['content:/Archive/dawn.txt']);
    // The UTC day 2026-03-06 does not hold it; the Seoul day before does not either.
    expect(await range('2026-03-06T00:00:00.000Z', '2026-03-06T23:59:59.999Z')).toEqual([]);
    expect(await range('2026-03-05T00:00:00+09:00', '2026-03-05T23:59:59.999+09:00')).toEqual([]);
    // A bare day is a day in the server's time zone.
    const day = localDay(new Date(mtime));
    const shift = (days: number) => localDay(new Date(new Date(mtime).getTime() + days * 86_400_000));
    expect(await range(day, day)).toEqual(['content:/Archive/dawn.txt']);
    expect(await range(shift(-1), shift(-1))).toEqual([]);
    expect(await range(shift(1), shift(1))).toEqual([]);
  });

  it('follows renames, moves and the trash', async () => {
    const rename = await call(server, apiCalls.file_rename, {
      token: master.token,
      body: { path: '/팀', name: 'zanzibar-trip.txt', newName: 'voyage.txt' },
    });
    expect(rename.status).toBe(200);
    expect(await names('zanzibar')).toEqual(['content:/Archive/old-notes.txt', 'content:/팀/budget.pdf']);
    expect(await names('voyage')).toEqual(['name:/팀/voyage.txt']);

    const move = await call(server, apiCalls.file_move, { token: master.token, body: { path: '/팀', name: '문서', newPath: '/Archive' } });
    expect(move.status).toBe(200);
    expect(await names('누리')).toEqual(['content:/Archive/old-notes.txt', 'content:/Archive/문서/noori.hwp']);

    // A trashed folder hides what lies inside it; restored, it is found again.
    const trashed = await call(server, apiCalls.file_trash, { token: master.token, body: { paths: ['/Archive/문서'] } });
    expect(trashed.status).toBe(200);
    expect(await names('누리')).toEqual(['content:/Archive/old-notes.txt']);
    expect(await names('문서')).toEqual(['content:/팀/minutes.docx']);
    expect(await names('리포트')).toEqual([]);
    const restored = await call(server, apiCalls.trash_restore, { token: master.token, body: { ids: trashed.body.ids } });
    expect(restored.status).toBe(200);
    expect(await names('누리')).toEqual(['content:/Archive/old-notes.txt', 'content:/Archive/문서/noori.hwp']);
  });

  it('ranks the whole name, then names starting with the keyword, then the rest, for two characters too', async () => {
    const folder = await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'qx', path: '/Archive' } });
    expect(folder.status).toBe(200);
    await put('/Archive', 'aqx.txt', Buffer.from('nothing here'));
    await put('/Archive', 'qx-notes.txt', Buffer.from('nothing here either'));
    await put('/Archive', 'qx-plan.txt', Buffer.from('nor here'));
    await server.app.searchIndex.idle();
    const expected = ['name:/Archive/qx', 'name:/Archive/qx-plan.txt', 'name:/Archive/qx-notes.txt', 'name:/Archive/aqx.txt'];
    expect(await names('qx')).toEqual(expected);
    expect(await names('QX')).toEqual(expected);
    expect(await names('qx-')).toEqual(['name:/Archive/qx-plan.txt', 'name:/Archive/qx-notes.txt']);
    // A rename leaves the two-character index too.
    const rename = await call(server, apiCalls.file_rename, { token: master.token, body: { path: '/Archive', name: 'aqx.txt', newName: 'ayz.txt' } });
    expect(rename.status).toBe(200);
    expect(await names('qx')).toEqual(expected.slice(0, 3));
    expect(await names('yz')).toEqual(['name:/Archive/ayz.txt']);
  });

  it('a copy shares the text of its original at once', async () => {
    const copy = await call(server, apiCalls.file_copy, { token: master.token, body: { path: '/팀', name: 'plan.hwpx', newPath: '/Archive' } });
    expect(copy.status).toBe(200);
    expect(await names('사업계획서')).toEqual(expect.arrayContaining(['content:/Archive/plan.hwpx', 'content:/팀/plan.hwpx']));
  });

  it('indexing shows no task of its own and sends no notification of its own', async () => {
    const cache = (await call(server, apiCalls.task_cache, { token: master.token })).body;
    expect(Object.values(cache).some((t) => t.type === 'upload')).toBe(true);
    // Nobody started a storage sync: indexing is not shown as one.
    expect(Object.values(cache).filter((t) => t.type === 'sync')).toEqual([]);
    const notes = (await call(server, apiCalls.notification_list, { token: master.token })).body;
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every((note) => note.key === 'note_upload_batch')).toBe(true);
  });

  it('extracts only the first part of a 200 MB text file, without reading it whole', async () => {
    const size = 200 * 1_048_576;
    const line = Buffer.from('첫 부분만 색인됩니다 capped-extraction-marker\n'.padEnd(128, '.'));
    async function* generate() {
      const block = Buffer.alloc(1_048_576, 'x');
      yield line;
      for (let written = line.length; written < size;) {
        const part = block.subarray(0, Math.min(block.length, size - written));
        written += part.length;
        yield part;
      }
    }
    const hash = randomBytes(32).toString('hex');
    const store = await server.app.blobStores.local();
    await store.put(blobKeyOf(hash), Readable.from(generate()));
    const folder = await server.app.fileTree.resolve('/팀');
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
    try {
      await server.app.fileTree.addFile(folder!, { name: 'huge.log', size, contentHash: hash, blobKey: blobKeyOf(hash), ownerId: master.user._id });
      await server.app.searchIndex.idle();
    } finally {
      clearInterval(sampler);
    }
    expect(peak - before).toBeLessThan(100 * 1_048_576);
    const found = await hits('capped-extraction-marker');
    expect(found.map((h) => h.name)).toEqual(['huge.log']);
    const row = await server.app.db.selectFrom('search_texts').select(['truncated', 'status']).where('hash', '=', hash).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ truncated: 1, status: 'indexed' });
    const length = await server.app.db
      .selectFrom('search_texts')
      .select((eb) => eb.fn('length', [eb.ref('body')]).as('n'))
      .where('hash', '=', hash)
      .executeTakeFirstOrThrow();
    expect(Number(length.n)).toBeLessThanOrEqual(1_048_576);
  }, 120_000);
});

/** The day of an instant in this process's time zone (the server's), as `YYYY-MM-DD`. */
function localDay(at: Date): string {
  return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
}
