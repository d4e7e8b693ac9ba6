import fs from 'node:fs';
import path from 'node:path';
import type { Download, Page } from '@playwright/test';
import { expect, MASTER, signIn, test, useServer, type RunningServer } from '../fixtures.js';
import { text } from '../i18n.js';
import { auditActionName } from '../../packages/contracts/src/calls/audit-action-names.js';

const ko = (key: string) => text('ko', key);
const en = (key: string) => text('en', key);
const SHOTS = process.env.BOGWAN_SHOTS_DIR;

const ROOT = '감사팀';
const FOLDER = `/${ROOT}/계약 100%_최종`;
const OTHER = `/${ROOT}/기타`;
const MEMBER = { name: '박감사', email: 'auditor.member@example.com', password: 'Member!2026x' };

test.use({ reducedMotion: 'reduce' });
test.describe.configure({ mode: 'serial' });

const server = useServer();
let masterToken = '';
let memberToken = '';
let memberId = '';

async function login(s: RunningServer, user: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${s.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  const body = (await res.json()) as { token?: string };
  if (!body.token) throw new Error(`login ${user.email}: ${res.status} ${JSON.stringify(body)}`);
  return body.token;
}

async function api(token: string, method: string, urlPath: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server().url}/api${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${await res.text()}`);
  const type = res.headers.get('content-type') ?? '';
  return type.includes('json') ? res.json() : res.text();
}

/** One small file in one chunk, as the web's uploader sends it. */
async function upload(token: string, folder: string, name: string, content: string): Promise<void> {
  const bytes = Buffer.from(content);
  const form = new FormData();
  const fields = { fileName: name, path: folder, chunkIndex: '0', totalChunks: '1', isLastChunk: 'true', fileSize: String(bytes.length) };
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  form.append('file', new Blob([bytes]), 'blob');
  const res = await fetch(`${server().url}/api/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (!res.ok) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
}

/** A local day 'YYYY-MM-DD', `daysAgo` before today (the date inputs' format, in the browser's zone as here). */
function localDay(daysAgo: number): string {
  const day = new Date();
  day.setDate(day.getDate() - daysAgo);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function readDownload(download: Download): Promise<string> {
  const file = await download.path();
  return fs.readFileSync(file, 'utf8');
}

/** A CSV's rows, as the export writes them (quoted cells may hold commas, quotes and line breaks). */
function parseCsv(source: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

test.beforeAll(async () => {
  const s = server();
  await s.createMaster();
  masterToken = await login(s, MASTER);
  await api(masterToken, 'POST', '/file', { path: '/', name: ROOT });
  await api(masterToken, 'POST', '/file', { path: `/${ROOT}`, name: FOLDER.split('/').pop() });
  await api(masterToken, 'POST', '/file', { path: `/${ROOT}`, name: '기타' });
  await api(masterToken, 'POST', '/user/register', { list: [{ name: MEMBER.name, email: MEMBER.email, password: MEMBER.password }] });
  const people = (await api(masterToken, 'GET', `/event/people?q=${encodeURIComponent(MEMBER.email)}`)) as { items: { _id: string }[] };
  memberId = people.items[0]!._id;
  await api(masterToken, 'PUT', '/resource', { path: `/${ROOT}`, users: [{ entity: memberId, access: 3 }] });
  // A root the member is denied (an entry with no permissions).
  await api(masterToken, 'POST', '/file', { path: '/', name: '비공개' });
  await upload(masterToken, '/비공개', 'secret.txt', 'not for the member\n');
  await api(masterToken, 'PUT', '/resource', { path: '/비공개', users: [{ entity: memberId, permissions: [] }] });
  memberToken = await login(s, MEMBER);

  // What the member did in the folder: upload, download, rename.
  await upload(memberToken, FOLDER, '계약서.txt', '갑과 을은 다음과 같이 계약한다.\n');
  await api(memberToken, 'GET', `/file/download?path=${encodeURIComponent(`${FOLDER}/계약서.txt`)}`);
  await api(memberToken, 'PUT', '/file/rename', { path: FOLDER, name: '계약서.txt', newName: '계약서-최종.txt' });
  // What must not show: the member elsewhere, and the administrator in the same folder.
  await upload(memberToken, OTHER, 'memo.txt', 'elsewhere\n');
  await upload(masterToken, FOLDER, 'admin.txt', 'by the administrator\n');
  // A refused download, recorded as such.
  const refused = await fetch(`${s.url}/api/file/download?path=${encodeURIComponent('/비공개/secret.txt')}`, {
    headers: { authorization: `Bearer ${memberToken}` },
  });
  expect(refused.status).toBe(403);
});

test('an administrator finds what one user did to one folder last week, and exports exactly those rows', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, server());
  await page.goto(`${server().url}/event`);
  await expect(page.getByRole('heading', { name: ko('nav_event') })).toBeVisible();
  const table = page.getByRole('table', { name: ko('nav_event') });
  const rows = table.getByTestId('audit-row');
  await expect(rows.first()).toBeVisible();

  // The person: part of the e-mail, then the suggestion (name and e-mail).
  const person = page.getByRole('combobox', { name: ko('audit_filter_person') });
  await person.fill('auditor.mem');
  await page.getByRole('option', { name: new RegExp(MEMBER.name) }).click();
  await expect(person).toHaveValue(`${MEMBER.name} · ${MEMBER.email}`);
  // The folder (special characters and Korean taken literally) and last week's days.
  await page.getByLabel(ko('audit_filter_path')).fill(FOLDER);
  await page.getByLabel(ko('activity_from')).fill(localDay(7));
  await page.getByLabel(ko('activity_to')).fill(localDay(0));

  await expect(rows).toHaveCount(3);
  const actions = await rows.locator('[data-action]').evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-action')));
  expect(actions).toEqual(['file.rename', 'file.download', 'file.upload']);
  await expect(rows.nth(0)).toContainText(auditActionName('file.rename', 'ko'));
  await expect(rows.nth(0)).toContainText(`${FOLDER}/계약서.txt`);
  await expect(rows.nth(1)).toContainText(auditActionName('file.download', 'ko'));
  await expect(rows.nth(2)).toContainText(auditActionName('file.upload', 'ko'));
  for (let i = 0; i < 3; i++) {
    await expect(rows.nth(i)).toContainText(MEMBER.name);
    await expect(rows.nth(i)).toContainText(MEMBER.email);
    await expect(rows.nth(i)).toContainText(ko('audit_outcome_allowed'));
  }
  await expect(table).not.toContainText('memo.txt');
  await expect(table).not.toContainText('admin.txt');

  // The view is in the address: opened again, it shows the same rows.
  const address = page.url();
  const query = new URL(address).searchParams;
  expect([query.get('path'), query.get('from'), query.get('to'), query.get('actor')]).toEqual([FOLDER, localDay(7), localDay(0), expect.any(String)]);
  await page.goto(address);
  await expect(rows).toHaveCount(3);
  await expect(page.getByRole('combobox', { name: ko('audit_filter_person') })).toHaveValue(`${MEMBER.name} · ${MEMBER.email}`);
  await expect(page.getByLabel(ko('activity_from'))).toHaveValue(localDay(7));
  await expect(page.getByLabel(ko('activity_to'))).toHaveValue(localDay(0));

  // CSV: Korean headers, a BOM for Excel, one line per row shown.
  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: ko('audit_export_csv') }).click();
  const csv = await readDownload(await csvDownload);
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  const [header, ...lines] = parseCsv(csv.slice(1)).filter((line) => line.some((cell) => cell !== ''));
  expect(lines).toHaveLength(3);
  const column = (name: string) => {
    const index = header!.indexOf(name);
    expect(index, `CSV column ${name}`).toBeGreaterThanOrEqual(0);
    return lines.map((line) => line[index]);
  };
  expect(column('동작')).toEqual(actions);
  expect(column('계정 이메일')).toEqual([MEMBER.email, MEMBER.email, MEMBER.email]);
  expect(column('결과')).toEqual(['allowed', 'allowed', 'allowed']);
  expect(column('경로')).toEqual([`${FOLDER}/계약서.txt`, `${FOLDER}/계약서.txt`, `${FOLDER}/계약서.txt`]);

  // JSON lines: the same three records, newest first, matching the table.
  const jsonDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: ko('audit_export_jsonl') }).click();
  const records = (await readDownload(await jsonDownload))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { action: string; outcome: string; target?: { path?: string } | null; targetPath?: string; actor?: unknown });
  expect(records.map((record) => record.action)).toEqual(actions);
  for (const record of records) {
    expect(JSON.stringify(record)).toContain(MEMBER.email);
    expect(record.outcome).toBe('allowed');
    expect(JSON.stringify(record)).toContain(FOLDER);
  }

  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, 'event-ko-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'event-ko-390');
});

test('the /event screen in English: refusals with their reason, a person by id, and the History of a file', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, server(), '/en');
  await page.goto(`${server().url}/en/event?path=${encodeURIComponent(FOLDER)}`);
  const table = page.getByRole('table', { name: en('nav_event') });
  // Everyone's records under the folder: the member's, the administrator's upload, none from elsewhere.
  await expect(table.getByTestId('audit-row').first()).toBeVisible();
  await expect(table).toContainText(`${FOLDER}/admin.txt`);
  await expect(table).not.toContainText('memo.txt');
  await expect(table).toContainText(auditActionName('file.rename', 'en'));
  await expect(table).toContainText(en('audit_detail_file_rename').replace('{{name}}', '계약서-최종.txt'));
  // Refusals: the outcome filter, the reason in the reader's language.
  await page.goto(`${server().url}/en/event?outcome=refused&path=${encodeURIComponent('/비공개')}`);
  const refusedRow = table.getByTestId('audit-row');
  await expect(refusedRow).toHaveCount(1);
  await expect(refusedRow).toContainText(en('audit_outcome_refused'));
  await expect(refusedRow).toContainText(en('no_access_warning'));
  await expect(refusedRow).toContainText('/비공개/secret.txt');
  await expect(refusedRow).toContainText(MEMBER.name);
  // The outcome filter (the browser's own select list) shows the choice from the address.
  const outcome = page.getByRole('combobox', { name: en('audit_filter_outcome') });
  await expect(outcome).toHaveValue('refused');
  await expect(outcome.locator('option:checked')).toHaveText(en('audit_outcome_refused'));
  await shot(page, 'event-en-refused-1440');
  // An address naming the person by id alone shows who it is.
  await page.goto(`${server().url}/en/event?actor=${memberId}`);
  await expect(page.getByRole('combobox', { name: en('audit_filter_person') })).toHaveValue(`${MEMBER.name} · ${MEMBER.email}`);
  await expect(table).not.toContainText(MASTER.email);
  await page.goto(`${server().url}/en/event?path=${encodeURIComponent(FOLDER)}`);
  await expect(table).toContainText(`${FOLDER}/admin.txt`);
  await shot(page, 'event-en-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'event-en-390');

  // History from the file menu: who did what to this file.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server().url}/en/storage/${encodeURIComponent(ROOT)}/${encodeURIComponent(FOLDER.split('/').pop()!)}`);
  await page.getByText('계약서-최종.txt').click({ button: 'right' });
  await page.getByRole('menuitem', { name: en('audit_history') }).click();
  const dialog = page.getByRole('dialog', { name: en('audit_history_title').replace('{{name}}', '계약서-최종.txt') });
  await expect(dialog.getByTestId('audit-row')).toHaveCount(3);
  await expect(dialog).toContainText(MEMBER.name);
  await dialog.getByRole('button', { name: en('close') }).click();
  await expect(dialog).toBeHidden();

  // The same from the preview overlay's History button.
  const previewed = page.waitForResponse((response) => response.url().includes('/api/file/preview') && response.ok());
  await page.getByText('계약서-최종.txt').dblclick();
  await previewed;
  const overlay = page.getByTestId('preview-overlay');
  await overlay.getByRole('button', { name: en('audit_history') }).click();
  const fromPreview = page.getByRole('dialog', { name: en('audit_history_title').replace('{{name}}', '계약서-최종.txt') });
  // The records from before the rename follow the file (its history goes by node, not by name),
  // and opening the text preview (which asks for the file's first bytes) was recorded as one view.
  await expect(fromPreview.getByTestId('audit-row')).toHaveCount(4);
  await expect(fromPreview).toContainText(auditActionName('file.upload', 'en'));
  await expect(fromPreview.getByTestId('audit-row').first()).toContainText(auditActionName('file.view', 'en'));
  await fromPreview.getByRole('button', { name: en('close') }).click();
  await overlay.getByRole('button', { name: en('close') }).click();
});

test('Settings → Activity: a user sees only their own records, an administrator only their own too', async ({ page }) => {
  test.setTimeout(180_000);
  // The member, in Korean: their own records only (also the member's upload elsewhere).
  const member = await page
    .context()
    .browser()!
    .newPage({ viewport: { width: 1440, height: 900 }, locale: 'ko-KR' });
  await member.goto(`${server().url}/auth/login`);
  await member.getByLabel(ko('email'), { exact: true }).fill(MEMBER.email);
  await member.getByLabel(ko('password'), { exact: true }).fill(MEMBER.password);
  await member.locator('button[type=submit]').click();
  await expect(member).not.toHaveURL(/\/auth\/login/);
  await member.getByRole('button', { name: ko('user_menu'), exact: true }).click();
  await member.getByRole('menuitem', { name: ko('settings'), exact: true }).click();
  await member
    .getByRole('navigation', { name: ko('settings_sections') })
    .getByRole('button', { name: ko('settings_activity'), exact: true })
    .click();
  const own = member.getByRole('table', { name: ko('settings_activity') });
  await expect(own.getByTestId('audit-row').first()).toBeVisible();
  await expect(own).toContainText('memo.txt');
  await expect(own).not.toContainText('admin.txt');
  await member.getByLabel(ko('audit_filter_path')).fill(FOLDER);
  await expect(own.getByTestId('audit-row')).toHaveCount(3);
  await shot(member, 'activity-ko-1440');
  await member.setViewportSize({ width: 390, height: 844 });
  await shot(member, 'activity-ko-390');
  await member.close();

  // The administrator's own Activity section in English.
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, server(), '/en');
  await page.getByRole('button', { name: en('user_menu'), exact: true }).click();
  await page.getByRole('menuitem', { name: en('settings'), exact: true }).click();
  await page
    .getByRole('navigation', { name: en('settings_sections') })
    .getByRole('button', { name: en('settings_activity'), exact: true })
    .click();
  const mine = page.getByRole('table', { name: en('settings_activity') });
  await expect(mine.getByTestId('audit-row').first()).toBeVisible();
  await expect(mine).not.toContainText('memo.txt');
  await shot(page, 'activity-en-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'activity-en-390');
});

test('Settings → Audit trail: an administrator sets how many years records are kept; a member has no such section', async ({ page }) => {
  test.setTimeout(180_000);
  const openAuditSection = async (p: Page, t: (key: string) => string) => {
    await p.getByRole('button', { name: t('user_menu'), exact: true }).click();
    await p.getByRole('menuitem', { name: t('settings'), exact: true }).click();
    await p
      .getByRole('navigation', { name: t('settings_sections') })
      .getByRole('button', { name: t('settings_audit'), exact: true })
      .click();
  };
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, server());
  await openAuditSection(page, ko);
  const years = page.getByLabel(ko('audit_retention_years'));
  await expect(years).toHaveValue('2');
  await shot(page, 'audit-retention-ko-1440');
  // Less than a year is refused before it is sent.
  await years.fill('0');
  await expect(page.getByText(ko('audit_retention_invalid').replace('{{min}}', '1').replace('{{max}}', '50'))).toBeVisible();
  await expect(page.getByRole('button', { name: ko('save'), exact: true })).toBeDisabled();
  await years.fill('5');
  await page.getByRole('button', { name: ko('save'), exact: true }).click();
  await expect(page.getByText(ko('audit_retention_saved'))).toBeVisible();
  expect(await api(masterToken, 'GET', '/setting/audit')).toEqual({ retentionYears: 5 });

  // In English, the saved value; at a phone's width too.
  await page.goto(`${server().url}/en`);
  await openAuditSection(page, en);
  await expect(page.getByLabel(en('audit_retention_years'))).toHaveValue('5');
  await shot(page, 'audit-retention-en-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'audit-retention-en-390');
  await api(masterToken, 'PUT', '/setting/audit', { retentionYears: 2 });

  // A member's settings have no Audit trail section.
  const member = await page
    .context()
    .browser()!
    .newPage({ viewport: { width: 1440, height: 900 }, locale: 'ko-KR' });
  await member.goto(`${server().url}/auth/login`);
  await member.getByLabel(ko('email'), { exact: true }).fill(MEMBER.email);
  await member.getByLabel(ko('password'), { exact: true }).fill(MEMBER.password);
  await member.locator('button[type=submit]').click();
  await expect(member).not.toHaveURL(/\/auth\/login/);
  await member.getByRole('button', { name: ko('user_menu'), exact: true }).click();
  await member.getByRole('menuitem', { name: ko('settings'), exact: true }).click();
  const sections = member.getByRole('navigation', { name: ko('settings_sections') });
  await expect(sections.getByRole('button', { name: ko('settings_activity'), exact: true })).toBeVisible();
  await expect(sections.getByRole('button', { name: ko('settings_audit'), exact: true })).toHaveCount(0);
  await member.close();
});
