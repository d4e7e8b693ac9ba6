import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// A notification is stored as a message key and JSON parameters, rendered in the reader's
// language (the old `message` column stays, unused, for rows written before). Existing rows
// are converted from the fixed bilingual texts the server used to write; a row that matches
// none keeps its text under `note_legacy`. An upload batch is one row that later files of the
// batch update: `batch_key` names the open batch (unique per user while open, NULL once
// closed), `batch_until` when it closes, `batch_count` how many files it holds.

type Params = Record<string, string | number>;

const unescape = (s: string) =>
  s
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#([0-9]+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

const TASKS: Record<string, string> = { '업로드 (upload)': 'upload', '동기화 (sync)': 'sync', '스냅샷 (snapshot)': 'snapshot', '복원 (restore)': 'restore' };
const OUTCOMES: Record<string, string> = { '완료 (completed)': 'completed', '취소 (canceled)': 'canceled', '실패 (failed)': 'failure' };
const REQUEST_TYPES: Record<string, string> = { '다운로드 (download)': 'download', '공유 링크 (share link)': 'share' };

/** The request label `<type label> <path>[ (+n)]` → its type and the language-free rest. */
function request(label: string): { type: string; what: string } | undefined {
  for (const [word, type] of Object.entries(REQUEST_TYPES)) if (label.startsWith(`${word} `)) return { type, what: unescape(label.slice(word.length + 1)) };
  return undefined;
}

/** The key and parameters of a message written before keys existed. */
export function keyOfOldMessage(message: string): { key: string; params: Params } {
  let m = /^(.+?) (완료 \(completed\)|취소 \(canceled\)|실패 \(failed\)): <b>([\s\S]*)<\/b>$/.exec(message);
  if (m && TASKS[m[1]!]) return { key: `note_task_${TASKS[m[1]!]}_${OUTCOMES[m[2]!]}`, params: { name: unescape(m[3]!) } };
  m = /^([\s\S]+) 님이 <b>([\s\S]+)<\/b> 승인을 요청했습니다 \(approval requested\)\.$/.exec(message);
  let r = m ? request(m[2]!) : undefined;
  if (m && r) return { key: `note_request_asked_${r.type}`, params: { by: unescape(m[1]!), what: r.what } };
  m = /^<b>([\s\S]+)<\/b> 요청이 승인되었습니다 \(approved by ([\s\S]*)\)\.$/.exec(message);
  r = m ? request(m[1]!) : undefined;
  if (m && r) return { key: `note_request_approved_${r.type}`, params: { what: r.what, by: unescape(m[2]!) } };
  m = /^<b>([\s\S]+)<\/b> 요청이 반려되었습니다 \(rejected\): ([\s\S]*)$/.exec(message);
  r = m ? request(m[1]!) : undefined;
  if (m && r) return { key: `note_request_rejected_${r.type}`, params: { what: r.what, reason: unescape(m[2]!) } };
  m = /^([\s\S]+) 님이 <b>([\s\S]+)<\/b> 요청을 취소했습니다 \(canceled\)\.$/.exec(message);
  r = m ? request(m[2]!) : undefined;
  if (m && r) return { key: `note_request_canceled_${r.type}`, params: { by: unescape(m[1]!), what: r.what } };
  m = /^<b>([\s\S]+)<\/b> 요청이 만료되었습니다 \(expired\)\.$/.exec(message);
  r = m ? request(m[1]!) : undefined;
  if (m && r) return { key: `note_request_expired_${r.type}`, params: { what: r.what } };
  m = /^<b>([\s\S]+)<\/b> 그룹에 초대되었습니다 \(you were added to the group <b>[\s\S]*<\/b> by ([\s\S]*)\)\.$/.exec(message);
  if (m) return { key: 'note_group_added', params: { group: unescape(m[1]!), by: unescape(m[2]!) } };
  m = /^<b>라이선스가 오늘 만료됩니다<\/b> \(the licence ends today, (\d{4}-\d{2}-\d{2})\)\./.exec(message);
  if (m) return { key: 'note_licence_ends_today', params: { date: m[1]! } };
  m = /^<b>라이선스가 (\d+)일 후 만료됩니다<\/b> \(the licence ends in \d+ days, (\d{4}-\d{2}-\d{2})\)\./.exec(message);
  if (m) return { key: 'note_licence_ends_in', params: { count: Number(m[1]), date: m[2]! } };
  return { key: 'note_legacy', params: { text: message } };
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table notifications add column message_key text not null default 'note_legacy'`.execute(db);
  await sql`alter table notifications add column params text not null default '{}'`.execute(db);
  await sql`alter table notifications add column batch_key text`.execute(db);
  await sql`alter table notifications add column batch_until text`.execute(db);
  await sql`alter table notifications add column batch_count integer not null default 0`.execute(db);
  await sql`create unique index notifications_open_batch on notifications (user_id, batch_key)`.execute(db);
  const rows = await sql<{ id: string; message: string }>`select id, message from notifications`.execute(db);
  for (const row of rows.rows) {
    const { key, params } = keyOfOldMessage(row.message);
    await sql`update notifications set message_key = ${key}, params = ${JSON.stringify(params)} where id = ${row.id}`.execute(db);
  }
}
