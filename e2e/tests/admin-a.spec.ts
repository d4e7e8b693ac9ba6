import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import Database from 'better-sqlite3';
import type { Page, Response } from '@playwright/test';
import { expect, MASTER, signIn, test, useServer, type RunningServer } from '../fixtures.js';
import { counted, text } from '../i18n.js';

test.use({ reducedMotion: 'reduce' });

const ko = (key: string) => text('ko', key);
const en = (key: string) => text('en', key);
const server = useServer();

const MEMBER = { name: '이사용', email: 'member@example.com', password: 'Member!2026x' };
const ROOT = '운영팀';

let token = '';

/** A USER account, written straight into the server's SQLite file (no account-creation call in this slice). */
async function insertUser(running: RunningServer, user: typeof MEMBER): Promise<void> {
  const db = new Database(path.join(running.dataDir, 'bogwan.sqlite'));
  try {
    const now = new Date().toISOString();
    db.prepare(
      `INSERT INTO users (id, name, email, description, role, role_level, status, approved, provider, password_hash,
         profile_image, last_login, mfa, otp_secret, otp_pending_secret, otp_last_step, failed_logins, locked_until, created_at, updated_at)
       VALUES (?, ?, ?, '', 'USER', 1, 'ACTIVE', 1, 'keeper', ?, NULL, NULL, 'none', NULL, NULL, 0, 0, NULL, ?, ?)`,
    ).run(randomUUID(), user.name, user.email, await hash(user.password), now, now);
  } finally {
    db.close();
  }
}

async function api(method: string, urlPath: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server().url}${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Uploads a small file in one chunk, as the web client does. */
async function uploadFile(folder: string, name: string, content: string): Promise<void> {
  const bytes = Buffer.from(content);
  const form = new FormData();
  const fields = { fileName: name, path: folder, userId: 'x', chunkIndex: '0', totalChunks: '1', isLastChunk: 'true', fileSize: String(bytes.length) };
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([bytes]), 'blob');
  const res = await fetch(`${server().url}/api/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(res.status, await res.clone().text()).toBe(200);
}

async function names(folder: string): Promise<string[]> {
  const res = await api('GET', `/api/file/list?path=${encodeURIComponent(folder)}`);
  return ((await res.json()) as { items: { name: string }[] }).items.map((i) => i.name);
}

test.beforeAll(async () => {
  const running = server();
  await running.createMaster();
  await insertUser(running, MEMBER);
  const login = await fetch(`${running.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: MASTER.email, password: MASTER.password }),
  });
  token = ((await login.json()) as { token: string }).token;
  expect((await api('POST', '/api/file', { name: ROOT, path: '/' })).ok).toBe(true);
  expect((await api('PUT', '/api/file/root/volume', { path: `/${ROOT}`, volume: 50 * 1024 * 1024 })).ok).toBe(true);
});

async function signInAs(page: Page, user: { email: string; password: string }, prefix = ''): Promise<void> {
  await page.goto(`${server().url}${prefix}/auth/login`);
  const t = prefix === '/en' ? en : ko;
  await page.getByLabel(t('email'), { exact: true }).fill(user.email);
  await page.getByLabel(t('password'), { exact: true }).fill(user.password);
  await page.locator('button[type=submit]').click();
  await expect(page).not.toHaveURL(/\/auth\/login/);
}

test('a USER sees no administration screens and is sent home from them', async ({ page }) => {
  await signInAs(page, MEMBER);
  await expect(page.getByTestId('nav-drawer').getByText(ko('nav_dashboard'), { exact: true })).toHaveCount(0);
  for (const route of ['/dashboard', '/log', '/trash']) {
    await page.goto(`${server().url}${route}`);
    await expect(page).toHaveURL(new RegExp(`${server().url}/?$`));
  }
  // The guide is for everyone.
  await page.goto(`${server().url}/guide`);
  await expect(page.getByRole('heading', { name: ko('nav_guide') })).toBeVisible();
});

test('the dashboard draws its charts from real uploads, downloads, accounts and storage', async ({ page }) => {
  await uploadFile(`/${ROOT}`, '분기 보고서.txt', 'x'.repeat(4096));
  await uploadFile(`/${ROOT}`, 'notes.txt', 'hello');
  const download = await api('GET', `/api/file/download?path=${encodeURIComponent(`/${ROOT}/notes.txt`)}`);
  expect(await download.text()).toBe('hello');

  await signIn(page, server());
  await page.getByTestId('nav-drawer').getByText(ko('nav_dashboard'), { exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: ko('nav_dashboard'), level: 1 })).toBeVisible();

  // Two uploads, one download and no preview today (the download is recorded before its first byte).
  const totals = (locale: 'ko' | 'en') =>
    [counted(locale, 'dashboard_uploads_count', 2), counted(locale, 'dashboard_downloads_count', 1), counted(locale, 'dashboard_previews_count', 0)].join(
      ' · ',
    );
  await expect
    .poll(async () => {
      await page.getByRole('button', { name: ko('refresh'), exact: true }).click();
      return page.getByText(totals('ko')).count();
    })
    .toBe(1);
  const transfers = page.getByTestId('chart-transfers');
  await expect(transfers.locator('svg').first()).toBeVisible();
  // One bar per day and series (uploads, downloads, previews); today's uploads and downloads have a height.
  const bars = transfers.locator('.dashboard-bar');
  await expect(bars).toHaveCount(90);
  const heights = await bars.evaluateAll((nodes) => nodes.map((n) => (n as SVGGraphicsElement).getBBox().height));
  expect(heights.filter((h) => h > 0).length).toBe(2);

  const roots = page.getByTestId('chart-roots');
  await expect(roots.getByText(ROOT)).toBeVisible();
  await expect(page.getByTestId('chart-backend-server')).toContainText('%');
  await expect(page.getByTestId('chart-accounts-role').locator('svg').first()).toBeVisible();
  await expect(page.getByTestId('chart-accounts-role')).toContainText(ko('dashboard_role_user'));
  await expect(page.getByText(ko('dashboard_accounts').replace('{{n}}', '2'))).toBeVisible();
  await expect(page.getByText(ko('dashboard_no_snapshot'))).toBeVisible();
  await expect(page.getByText(ko('license_trial'))).toBeVisible();

  // The same in English.
  await page.goto(`${server().url}/en/dashboard`);
  await expect(page.getByTestId('chart-transfers')).toContainText(en('dashboard_uploads'));
  await expect(page.getByText(totals('en'))).toBeVisible();
});

test('an administrator restores and purges trash items, sets the retention and empties the trash', async ({ page }) => {
  for (const name of ['되살릴 파일.txt', '지울 파일.txt', '남은 파일.txt']) await uploadFile(`/${ROOT}`, name, name);
  const trashed = await api('POST', '/api/file/trash', { paths: ['되살릴 파일.txt', '지울 파일.txt', '남은 파일.txt'].map((n) => `/${ROOT}/${n}`) });
  expect(trashed.ok).toBe(true);

  await signIn(page, server());
  await page.goto(`${server().url}/trash`);
  const table = page.getByRole('table', { name: ko('nav_trash') });
  const row = (name: string) => table.getByRole('row').filter({ hasText: name });
  await expect(row('되살릴 파일.txt')).toContainText(`/${ROOT}`);
  await expect(row('되살릴 파일.txt')).toContainText(MASTER.name);

  await row('되살릴 파일.txt')
    .getByRole('button', { name: `${ko('trash_restore')}: 되살릴 파일.txt` })
    .click();
  await expect(row('되살릴 파일.txt')).toHaveCount(0);
  expect(await names(`/${ROOT}`)).toContain('되살릴 파일.txt');

  await row('지울 파일.txt')
    .getByRole('button', { name: `${ko('trash_delete_forever')}: 지울 파일.txt` })
    .click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('지울 파일.txt');
  await confirm.getByRole('button', { name: ko('trash_delete_forever'), exact: true }).click();
  await expect(row('지울 파일.txt')).toHaveCount(0);
  const left = (await (await api('GET', '/api/trash')).json()) as { items: { name: string }[] };
  expect(left.items.map((i) => i.name)).toEqual(['남은 파일.txt']);

  // Retention: off by default; on for 14 days after saving.
  await expect(page.getByText(ko('trash_retention_off'))).toBeVisible();
  await page.getByLabel(ko('trash_retention_switch')).check();
  await page.getByLabel(ko('trash_retention_days')).fill('0');
  await expect(page.getByText(ko('trash_retention_invalid'))).toBeVisible();
  await page.getByLabel(ko('trash_retention_days')).fill('14');
  await page.getByRole('button', { name: ko('save'), exact: true }).click();
  await expect(page.getByText(counted('ko', 'trash_retention_on', 14))).toBeVisible();
  expect(await (await api('GET', '/api/trash/retention')).json()).toEqual({ days: 14 });

  await page.getByRole('button', { name: ko('trash_empty'), exact: true }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: ko('trash_delete_forever'), exact: true })
    .click();
  await expect(page.getByText(ko('trash_empty_state'))).toBeVisible();
  expect(((await (await api('GET', '/api/trash')).json()) as { total: number }).total).toBe(0);
});

test('the system log is filtered and exported as a CSV that a spreadsheet cannot run', async ({ page }) => {
  const marker = `e2e-marker-${Date.now()}`;
  await fetch(`${server().url}/api/health?${marker}`, { headers: { 'user-agent': '=HYPERLINK("http://evil.example","x")' } });

  await signIn(page, server());
  await page.goto(`${server().url}/log`);
  await page.getByLabel(ko('log_url')).fill(`/api/health?${marker}`);
  await page.getByRole('button', { name: ko('log_search'), exact: true }).click();
  const table = page.getByRole('table', { name: ko('nav_log') });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText(`/api/health?${marker}`);

  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: ko('log_export'), exact: true }).click()]);
  expect(file.suggestedFilename()).toBe('system_log_data.csv');
  const bytes = fs.readFileSync((await file.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').split('\r\n').filter(Boolean);
  expect(lines[0]).toBe('createdAt,ip,method,url,status,responseTimeMs,contentLength,userAgent,userId');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`/api/health?${marker}`);
  expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
});

test('the system sections of the settings show the machine, the network and the enforced policies', async ({ page }) => {
  await signIn(page, server(), '/en');
  await page.getByRole('button', { name: en('user_menu'), exact: true }).click();
  await page.getByRole('menuitem', { name: en('settings'), exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: en('settings_information'), exact: true }).click();
  await expect(dialog.getByText(en('system_hostname'))).toBeVisible();
  await expect(dialog.getByText(en('system_cpu_cores'))).toBeVisible();

  await dialog.getByRole('button', { name: en('settings_network'), exact: true }).click();
  await dialog.getByRole('button', { name: /^lo\b/ }).click();
  await expect(dialog.getByText('127.0.0.1', { exact: true })).toBeVisible();

  await dialog.getByRole('button', { name: en('settings_policy'), exact: true }).click();
  await dialog.getByPlaceholder(en('policy_search')).fill('system_log_export');
  await dialog.getByRole('button', { name: `${en('policy_details')}: GET /api/system/log/export` }).click();
  const details = page.getByRole('dialog', { name: en('policy_details') });
  await expect(details).toContainText('/api/system/log/export');
  await expect(details).toContainText('GET');
  await expect(details).toContainText(`2 · ${en('policy_level_admin')}`);
});

test('the guide and the manual open in the PDF viewer from the help menu and download', async ({ page }) => {
  await signIn(page, server());
  await page.getByRole('button', { name: ko('help_menu'), exact: true }).click();
  const guide = page.waitForResponse((response) => new URL(response.url()).pathname === '/guide/guide-ko.pdf');
  await page.getByRole('menuitem', { name: ko('nav_guide'), exact: true }).click();
  await expect(page).toHaveURL(/\/guide$/);
  // Chromium has a PDF viewer of its own: the guide is framed in it, from the document's bytes.
  const viewer = page.getByTestId('pdf-preview');
  await expect(viewer).toHaveAttribute('data-viewer', 'browser');
  await expect(viewer).toHaveAttribute('title', ko('nav_guide'));
  await expectFramedPdf(page, await guide);

  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: ko('download'), exact: true }).click()]);
  expect(file.suggestedFilename()).toBe('bogwan-guide-ko.pdf');
  expect(
    fs
      .readFileSync((await file.path())!)
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');

  const manualPdf = page.waitForResponse((response) => new URL(response.url()).pathname === '/guide/manual-en.pdf');
  await page.goto(`${server().url}/en/manual`);
  await expect(page.getByRole('heading', { name: en('nav_manual') })).toBeVisible();
  await expect(page.getByTestId('pdf-preview')).toHaveAttribute('title', en('nav_manual'));
  await expectFramedPdf(page, await manualPdf);
  const [manual] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: en('download'), exact: true }).click()]);
  expect(manual.suggestedFilename()).toBe('bogwan-manual-en.pdf');
});

test('a browser without a PDF viewer of its own (a phone) sees the guide drawn page by page', async ({ page }) => {
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'pdfViewerEnabled', { get: () => false }));
  await signIn(page, server());
  await page.goto(`${server().url}/guide`);
  const viewer = page.getByTestId('pdf-preview');
  // pdf.js reads the whole document first: slower than the other screens on a busy machine.
  await expect(viewer).toHaveAttribute('data-pages', /^\d+$/, { timeout: 30_000 });
  expect(Number(await viewer.getAttribute('data-pages'))).toBeGreaterThan(5);
  await expect(viewer.locator('canvas').first()).toBeVisible();
});

/** The document the page fetched is a PDF, and the browser's viewer opened it in the frame. */
async function expectFramedPdf(page: Page, pdf: Response): Promise<void> {
  expect(pdf.ok()).toBe(true);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  const src = await page.getByTestId('pdf-preview').getAttribute('src');
  expect(src).toMatch(/^blob:/);
  await expect.poll(() => page.frames().some((frame) => frame.url() === src)).toBe(true);
}
