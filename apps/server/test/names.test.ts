import { apiCalls, PATH_MAX_LENGTH } from '@bogwan/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as nfcNames } from '../src/db/migrations/20261127_0201_nfc_names.js';
import { blankNode } from '../src/modules/files/file-tree.js';
import { addFile, namesIn } from './files-helpers.js';
import { call, callRefused, describeEachDialect, type RefusalAnswer, setupMaster, startServer, type TestServer } from './harness.js';
import { migratedTestDb, nodeRow } from './node-rows.js';
import { bytesOf, upload } from './transfer-helpers.js';

// Names that cannot deceive or strand: one Unicode form (NFC) for every name, no
// bidirectional formatting characters in file names, and no path past 4,096 UTF-8 bytes.

const NFC = '보고서';
const NFD = NFC.normalize('NFD');
const RLO = '\u202e';
/** A folder name of the longest allowed length (255 one-byte characters). */
const LONG = 'a'.repeat(255);

describeEachDialect('names and paths on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    for (const name of ['Names', 'Deep']) await mkdir('/', name);
  });
  afterAll(async () => {
    await server?.close();
  });

  const mkdir = (path: string, name: string) => call(server, apiCalls.folder_create, { token: master.token, body: { name, path } });
  const mkdirRefused = (path: string, name: string) => callRefused(server, apiCalls.folder_create, { token: master.token, body: { name, path } });
  /** A refusal as `status message`. */
  const reason = async (refusal: Promise<RefusalAnswer>) => {
    const { status, body } = await refusal;
    return `${status} ${body.message}`;
  };
  /** An upload's answer: 200, or `status message`. */
  const answer = async (res: Promise<{ status: number; body: any }>) => {
    const { status, body } = await res;
    return status === 200 ? 200 : `${status} ${body?.message}`;
  };
  const refused = (fn: () => Promise<unknown>) =>
    fn().then(
      () => 'added',
      (error: { statusCode?: number; message?: string }) => `${error.statusCode} ${error.message}`,
    );

  it('a name typed in NFC and in NFD is one name, stored and listed in NFC, found by either', async () => {
    await mkdir('/Names', NFD);
    expect(await reason(mkdirRefused('/Names', NFC))).toBe('409 file_exists_warning');
    expect(await namesIn(server, master.token, '/Names')).toEqual([NFC]);
    // Paths in either form find it.
    expect(await namesIn(server, master.token, `/Names/${NFD}`)).toEqual([]);
    await addFile(server, `/Names/${NFD}`, `${NFD}.txt`, 3, master.user._id, 'nfd');
    expect(await refused(() => addFile(server, `/Names/${NFC}`, `${NFC}.txt`, 3, master.user._id, 'nfc'))).toBe('409 file_exists_warning');
    expect(await namesIn(server, master.token, `/Names/${NFC}`)).toEqual([`${NFC}.txt`]);
    // Uploads, renames and moves land on the same name.
    expect(await answer(upload(server, master.token, `/Names/${NFC}`, `${NFD}.txt`, bytesOf(5)))).toBe('409 file_exists_warning');
    await addFile(server, `/Names/${NFC}`, 'other.txt', 1, master.user._id, 'other');
    expect(
      await reason(
        callRefused(server, apiCalls.file_rename, { token: master.token, body: { path: `/Names/${NFD}`, name: 'other.txt', newName: `${NFD}.txt` } }),
      ),
    ).toBe('409 file_exists_warning');
    const renamed = await call(server, apiCalls.file_rename, {
      token: master.token,
      body: { path: `/Names/${NFD}`, name: 'other.txt', newName: `다른${NFD}.txt` },
    });
    expect(renamed.body).toMatchObject({ name: `다른${NFC}.txt`, path: `/Names/${NFC}/다른${NFC}.txt` });
    const moved = await call(server, apiCalls.file_move, { token: master.token, body: { path: `/Names/${NFD}`, name: `다른${NFD}.txt`, newPath: '/Names' } });
    expect(moved.body).toMatchObject({ name: `다른${NFC}.txt`, path: `/Names/다른${NFC}.txt` });
    const stored = await server.app.db.selectFrom('nodes').select('name').execute();
    expect(stored.filter((row) => row.name !== row.name.normalize('NFC'))).toEqual([]);
  });

  it('refuses bidirectional embeddings, overrides and isolates in file names as in folder names', async () => {
    await addFile(server, '/Names', 'invoice.txt', 1, master.user._id, 'invoice');
    for (const control of [RLO, '\u202a', '\u2066', '\u2069']) {
      const name = `invoice${control}fdp.exe`;
      expect(await refused(() => addFile(server, '/Names', name, 1, master.user._id, name))).toBe('400 invalid_path');
      expect(await answer(upload(server, master.token, '/Names', name, bytesOf(5)))).toBe('400 invalid_path');
      expect(
        await reason(callRefused(server, apiCalls.file_rename, { token: master.token, body: { path: '/Names', name: 'invoice.txt', newName: name } })),
      ).toBe('400 invalid_path');
      expect(await reason(mkdirRefused('/Names', `a${control}b`))).toBe('400 rules_folder');
    }
    expect(await namesIn(server, master.token, '/Names')).not.toContainEqual(expect.stringContaining(RLO));
  });

  describe('the 4,096-byte path limit', () => {
    // /Deep (5 bytes) and 15 folders of 255 bytes: 3,845 bytes; 251 bytes are left for a name.
    const levels = 15;
    let deepest = '/Deep';
    const room = () => PATH_MAX_LENGTH - deepest.length - 1;

    beforeAll(async () => {
      for (let i = 0; i < levels; i += 1) {
        await mkdir(deepest, LONG);
        deepest = `${deepest}/${LONG}`;
      }
      expect(room()).toBe(250);
    });

    it('holds for new folders, added and uploaded files: the last byte fits, one more does not', async () => {
      await mkdir(deepest, 'b'.repeat(room()));
      expect(await reason(mkdirRefused(deepest, 'c'.repeat(room() + 1)))).toBe('400 invalid_path');
      const fits = `${'d'.repeat(room() - 4)}.txt`;
      const over = `${'e'.repeat(room() - 3)}.txt`;
      await addFile(server, deepest, fits, 1, master.user._id, 'fits');
      expect(await refused(() => addFile(server, deepest, over, 1, master.user._id, 'over'))).toBe('400 invalid_path');
      expect(await answer(upload(server, master.token, deepest, over, bytesOf(5)))).toBe('400 invalid_path');
      // Korean takes three bytes a character: 84 characters are 252 bytes.
      expect(await answer(upload(server, master.token, deepest, '가'.repeat(84), bytesOf(5)))).toBe('400 invalid_path');
      expect(await answer(upload(server, master.token, deepest, '가'.repeat(83), bytesOf(5)))).toBe(200);
      // Everything created can be reached again: downloaded, renamed, trashed.
      const listed = await call(server, apiCalls.file_list, { token: master.token, query: { path: deepest } });
      for (const item of listed.body.items) expect(new TextEncoder().encode(item.path).length).toBeLessThanOrEqual(PATH_MAX_LENGTH);
    });

    it('holds for renames and for moves, copies and restores of folders with deep contents', async () => {
      const parent = deepest.slice(0, deepest.lastIndexOf('/'));
      // A folder one level up holding a 255-byte folder with a short file: its deepest path is 256 + 6 bytes below it.
      await mkdir('/Deep', 'box');
      await mkdir('/Deep/box', LONG);
      await addFile(server, `/Deep/box/${LONG}`, 'f.txt', 1, master.user._id, 'box');
      // Into `parent` (3,589 bytes): 3,589 + 4 + 256 + 6 = 3,855 bytes fit.
      await call(server, apiCalls.file_copy, { token: master.token, body: { path: '/Deep', name: 'box', newPath: parent } });
      // Into `deepest` (3,845 bytes): 3,845 + 4 + 256 + 6 = 4,111 bytes do not, for move and copy alike.
      for (const contract of [apiCalls.file_move, apiCalls.file_copy]) {
        expect(await reason(callRefused(server, contract, { token: master.token, body: { path: '/Deep', name: 'box', newPath: deepest } }))).toBe(
          '400 invalid_path',
        );
      }
      expect(await namesIn(server, master.token, '/Deep')).toContain('box');
      // A rename that would push the deepest path below over the limit is refused; a short one passes.
      expect(
        await reason(callRefused(server, apiCalls.file_rename, { token: master.token, body: { path: parent, name: 'box', newName: 'x'.repeat(255) } })),
      ).toBe('400 invalid_path');
      await call(server, apiCalls.file_rename, { token: master.token, body: { path: parent, name: 'box', newName: 'b2' } });
      // A folder trashed, its old folder moved deeper meanwhile: putting it back would pass the limit.
      await mkdir('/Deep', 'shelf');
      await call(server, apiCalls.file_move, { token: master.token, body: { path: '/Deep', name: 'box', newPath: '/Deep/shelf' } });
      const trashed = await call(server, apiCalls.file_trash, { token: master.token, body: { paths: ['/Deep/shelf/box'] } });
      await call(server, apiCalls.file_move, { token: master.token, body: { path: '/Deep', name: 'shelf', newPath: deepest } });
      expect(await reason(callRefused(server, apiCalls.trash_restore, { token: master.token, body: { ids: trashed.body.ids } }))).toBe('400 invalid_path');
    });

    it('an item an earlier version let past the limit is reached again by shortening a folder above it', async () => {
      // Put there directly, as an earlier version could: 3,845 + 1 + 255 bytes.
      const folder = (await server.app.fileTree.resolve(deepest))!;
      const now = new Date().toISOString();
      await server.app.db
        .insertInto('nodes')
        .values({ ...blankNode(folder, now), name: 'z'.repeat(255), owner_id: master.user._id })
        .execute();
      const stranded = `${deepest}/${'z'.repeat(255)}`;
      expect(await reason(callRefused(server, apiCalls.file_list, { token: master.token, query: { path: stranded } }))).toBe('400 invalid_path');
      // The first long folder under /Deep becomes `s`: every path below loses 254 bytes.
      await call(server, apiCalls.file_rename, { token: master.token, body: { path: '/Deep', name: LONG, newName: 's' } });
      const reached = `/Deep/s${stranded.slice(`/Deep/${LONG}`.length)}`;
      await call(server, apiCalls.file_list, { token: master.token, query: { path: reached } });
    });
  });
});

describeEachDialect('the NFC migration on $dialect', (dialect) => {
  it('stores every name in NFC; a name its NFC twin already holds gets a number, nothing fails', async () => {
    const db = await migratedTestDb(dialect);
    await db
      .insertInto('nodes')
      .values([
        nodeRow('r', '', 'Root', { folder: 1 }),
        nodeRow('n1', 'r', `${NFC}.txt`),
        nodeRow('n2', 'r', `${NFD}.txt`),
        nodeRow('n3', 'r', `${NFD} (1).txt`),
        nodeRow('n4', 'r', NFD, { folder: 1 }),
        nodeRow('n5', 'r', `${NFD}.txt`, { trashKey: 'n5' }),
        nodeRow('n6', 'n4', `${NFD}.txt`),
      ])
      .execute();
    await nfcNames(db);
    const rows = await db.selectFrom('nodes').select(['id', 'name']).orderBy('id').execute();
    expect(Object.fromEntries(rows.map((row) => [row.id, row.name]))).toEqual({
      n1: `${NFC}.txt`,
      // Its NFC twin n1 keeps the name; n3 takes " (1)" first (n3's own NFC form), so n2 gets " (2)".
      n2: `${NFC} (2).txt`,
      n3: `${NFC} (1).txt`,
      n4: NFC,
      // In the trash a name blocks nothing.
      n5: `${NFC}.txt`,
      n6: `${NFC}.txt`,
      r: 'Root',
    });
  });
});
