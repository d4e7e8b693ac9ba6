import { apiCalls } from '@bogwan/contracts';
import { type Kysely, Migrator } from 'kysely';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/index.js';
import { migrations } from '../src/db/migrations/index.js';
import { signInAs } from './files-helpers.js';
import { call, describeEachDialect, openTestDb, setupMaster, startServer, type TestServer } from './harness.js';
import { bytesOf, upload } from './transfer-helpers.js';

// Notifications are stored as a message key and parameters (the reader's web app renders
// them in its language); finished uploads are told of once per batch; old fixed texts are
// converted by the migration.

describeEachDialect('notification keys on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    for (const name of ['영업부', '개발부', 'Burst']) await call(server, apiCalls.folder_create, { token: master.token, body: { name, path: '/' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const notes = async () => (await call(server, apiCalls.notification_list, { token: master.token })).body;
  const uploadsInto = async (folder: string) => (await notes()).filter((n) => n.key === 'note_upload_batch' && n.params.folder === folder);

  it('files uploaded one after another into one folder make one notification that counts them', async () => {
    for (let i = 0; i < 3; i++) expect((await upload(server, master.token, '/영업부', `계약서-${i}.hwp`, bytesOf(500, `s${i}`))).status).toBe(200);
    const batch = await uploadsInto('/영업부');
    expect(batch).toHaveLength(1);
    expect(batch[0]!.params).toMatchObject({ folder: '/영업부', count: 3, name: '계약서-0.hwp' });
    // Another folder is another batch.
    expect((await upload(server, master.token, '/개발부', 'spec.md', bytesOf(100, 'dev'))).status).toBe(200);
    expect((await uploadsInto('/개발부'))[0]!.params).toMatchObject({ count: 1, name: 'spec.md' });
    expect(await uploadsInto('/영업부')).toHaveLength(1);
  });

  it('a burst of uploads finishing at once into one folder counts each file exactly once in one notification', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => upload(server, master.token, '/Burst', `b-${i}.bin`, bytesOf(300, `burst-${i}`))));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    const batch = await uploadsInto('/Burst');
    expect(batch).toHaveLength(1);
    expect(batch[0]!.params.count).toBe(8);
  });

  it('a batch whose window has passed is closed: the next file opens a new one, unread', async () => {
    const [open] = await uploadsInto('/개발부');
    await call(server, apiCalls.notification_read, { token: master.token, body: { _id: open!._id, read: true } });
    await server.app.db
      .updateTable('notifications')
      .set({ batch_until: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', open!._id)
      .execute();
    expect((await upload(server, master.token, '/개발부', 'later.md', bytesOf(100, 'later'))).status).toBe(200);
    const batches = await uploadsInto('/개발부');
    expect(batches.map((n) => [n.params.count, n.read])).toEqual([
      [1, false],
      [1, true],
    ]);
  });

  it('sharing with named users notifies each of them once, with who shared what; the others hear nothing', async () => {
    const friend = await signInAs(server, 'friend@example.com');
    const later = await signInAs(server, 'later@example.com');
    const outsider = await signInAs(server, 'outsider@example.com');
    const notesOf = async (token: string) => (await call(server, apiCalls.notification_list, { token })).body.filter((n) => n.key === 'note_share_received');
    const link = await call(server, apiCalls.share_create, { token: master.token, body: { path: '/영업부', scope: 'specific', users: [friend.user._id] } });
    expect((await notesOf(friend.token)).map((n) => n.params)).toEqual([{ by: master.user.name, name: '영업부' }]);
    // An edit that adds a user tells the new one only.
    await call(server, apiCalls.share_update, {
      token: master.token,
      params: { id: link.body._id },
      body: { scope: 'specific', users: [friend.user._id, later.user._id] },
    });
    expect(await notesOf(friend.token)).toHaveLength(1);
    expect(await notesOf(later.token)).toHaveLength(1);
    expect(await notesOf(outsider.token)).toEqual([]);
  });

  it('a failed upload is told of on its own, with its name as a parameter', async () => {
    const task = await server.app.tasks.start({ type: 'upload', ownerId: master.user._id, name: '<b>깨진</b>.zip', clientPath: '/영업부' });
    await server.app.tasks.update(task.id, { status: 'failure' });
    const failed = (await notes()).find((n) => n.key === 'note_task_upload_failure');
    expect(failed?.params.name).toBe('<b>깨진</b>.zip');
  });
});

describeEachDialect('the notification key migration on $dialect', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('converts the old fixed bilingual texts into keys and parameters; anything else stays as legacy text', async () => {
    const { db, close } = await openTestDb(dialect);
    cleanups.push(close);
    const names = Object.keys(migrations).sort();
    const before = names[names.indexOf('20261127_2601_notification_keys') - 1]!;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(before)).error).toBeUndefined();
    const now = new Date().toISOString();
    const user = {
      id: 'u-1',
      name: '박서준',
      email: 'seojun@example.com',
      description: '',
      role: 'USER',
      role_level: 1,
      status: 'ACTIVE',
      approved: 1,
      provider: 'local',
      password_hash: null,
      profile_image: null,
      last_login: null,
      mfa: 'none',
      otp_secret: null,
      otp_pending_secret: null,
      otp_last_step: 0,
      failed_logins: 0,
      locked_until: null,
      created_at: now,
      updated_at: now,
    };
    await db
      .insertInto('users')
      .values(user as never)
      .execute();
    const old: [string, string][] = [
      ['n1', '업로드 (upload) 완료 (completed): <b>계약서 &#60;최종&#62;.hwp</b>'],
      ['n2', '복원 (restore) 취소 (canceled): <b>월간 백업</b>'],
      ['n3', '김민지 님이 <b>다운로드 (download) /보안/급여.xlsx (+2)</b> 승인을 요청했습니다 (approval requested).'],
      ['n4', '<b>공유 링크 (share link) /보안/계획.pdf</b> 요청이 승인되었습니다 (approved by 이도윤).'],
      ['n5', '<b>다운로드 (download) /보안/a.txt</b> 요청이 반려되었습니다 (rejected): 사유 &#38; 설명'],
      ['n6', '<b>영업팀</b> 그룹에 초대되었습니다 (you were added to the group <b>영업팀</b> by 관리자).'],
      ['n7', '<b>라이선스가 5일 후 만료됩니다</b> (the licence ends in 5 days, 2026-12-02). 설정 → 시스템 → 라이선스에서 새 키를 저장하세요.'],
      ['n8', '관리자가 남긴 <i>임의의</i> 알림'],
    ];
    await (db as unknown as Kysely<any>)
      .insertInto('notifications')
      .values(old.map(([id, message]) => ({ id, user_id: 'u-1', message, level: 0, read: 0, created_at: now })))
      .execute();
    await migrateToLatest(db);
    const rows = await db.selectFrom('notifications').select(['id', 'message_key', 'params']).orderBy('id').execute();
    expect(rows.map((r) => [r.id, r.message_key, JSON.parse(r.params)])).toEqual([
      ['n1', 'note_task_upload_completed', { name: '계약서 <최종>.hwp' }],
      ['n2', 'note_task_restore_canceled', { name: '월간 백업' }],
      ['n3', 'note_request_asked_download', { by: '김민지', what: '/보안/급여.xlsx (+2)' }],
      ['n4', 'note_request_approved_share', { what: '/보안/계획.pdf', by: '이도윤' }],
      ['n5', 'note_request_rejected_download', { what: '/보안/a.txt', reason: '사유 & 설명' }],
      ['n6', 'note_group_added', { group: '영업팀', by: '관리자' }],
      ['n7', 'note_licence_ends_in', { count: 5, date: '2026-12-02' }],
      ['n8', 'note_legacy', { text: '관리자가 남긴 <i>임의의</i> 알림' }],
    ]);
  });
});
