import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import Database from 'better-sqlite3';
import type { Browser, Page } from '@playwright/test';
import { expect, MASTER, test, useServer, type RunningServer } from '../fixtures.js';
import { text } from '../i18n.js';

const ko = (key: string) => text('ko', key);
const server = useServer();

const MEMBER = { name: '이사용', email: 'member@example.com', password: 'Member!2026x' };
const ROOT = '실시간 팀';

/** A USER account, written straight into the server's SQLite file (there is no account-creation call yet). */
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

async function apiToken(running: RunningServer, user: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${running.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

/** A page of its own browser context, signed in as `user`. */
async function signedIn(browser: Browser, running: RunningServer, user: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${running.url}/auth/login`);
  await page.getByLabel(ko('email'), { exact: true }).fill(user.email);
  await page.getByLabel(ko('password'), { exact: true }).fill(user.password);
  await page.locator('button[type=submit]').click();
  await expect(page).not.toHaveURL(/\/auth\/login/);
  return page;
}

const badge = (page: Page) => page.getByTestId('notification-badge');

test('notices, the notification bell and the task panel work across two users without a reload', async ({ browser }) => {
  const running = server();
  await running.createMaster();
  await insertUser(running, MEMBER);
  const masterToken = await apiToken(running, MASTER);
  const created = await fetch(`${running.url}/api/file`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${masterToken}` },
    body: JSON.stringify({ name: ROOT, path: '/' }),
  });
  expect(created.ok).toBe(true);

  const admin = await signedIn(browser, running, MASTER);
  const member = await signedIn(browser, running, MEMBER);

  // The administrator writes a notice; the button waits for both fields.
  await admin.getByRole('button', { name: ko('help_menu') }).click();
  await admin.getByRole('menuitem', { name: ko('notice') }).click();
  const adminDrawer = admin.getByRole('dialog', { name: ko('notice') });
  const post = adminDrawer.getByRole('button', { name: ko('notice_post') });
  await expect(post).toBeDisabled();
  await adminDrawer.getByLabel(ko('notice_title')).fill('정기 점검 안내');
  await expect(post).toBeDisabled();
  await adminDrawer.getByLabel(ko('notice_content')).fill('토요일 02:00에 점검합니다.\n<script>alert(1)</script>');
  await post.click();
  await expect(admin.getByText(ko('notice_created'))).toBeVisible();
  await admin.keyboard.press('Escape');

  // The user sees it marked New, content as plain text, and no write form.
  await member.getByRole('button', { name: ko('help_menu') }).click();
  await member.getByRole('menuitem', { name: ko('notice') }).click();
  const memberDrawer = member.getByRole('dialog', { name: ko('notice') });
  const notice = memberDrawer.getByTestId('notice-item').filter({ hasText: '정기 점검 안내' });
  await expect(notice).toBeVisible();
  await expect(notice.getByText(ko('notice_new'), { exact: true })).toBeVisible();
  await expect(notice.getByText('<script>alert(1)</script>')).toBeVisible();
  await expect(memberDrawer.getByLabel(ko('notice_title'))).toHaveCount(0);
  await expect(memberDrawer.getByRole('button', { name: new RegExp(`^${ko('delete')}`) })).toHaveCount(0);
  await member.keyboard.press('Escape');

  // Both bells start empty.
  await expect(badge(admin)).toHaveAttribute('data-count', '0');
  await expect(badge(member)).toHaveAttribute('data-count', '0');

  // The user uploads a file; the finished upload task notifies them, live.
  await member.goto(`${running.url}/storage/${encodeURIComponent(ROOT)}`);
  await member.getByTestId('upload-input').setInputFiles({ name: 'hello.txt', mimeType: 'text/plain', buffer: Buffer.from('hello realtime\n') });
  await expect(badge(member)).toHaveAttribute('data-count', '1', { timeout: 20_000 });
  await expect(badge(admin)).toHaveAttribute('data-count', '0');

  await member.getByTestId('notification-badge').click();
  const item = member.getByTestId('notification-item');
  await expect(item).toHaveCount(1);
  await expect(item.locator('b')).toHaveText('hello.txt');
  await member.keyboard.press('Escape');

  // The upload is in the task panel's upload tab; Move goes to its folder.
  await member.goto(`${running.url}/home`);
  await member.getByTestId('task-indicator').click();
  const panel = member.getByTestId('task-panel');
  await expect(panel).toBeVisible();
  await panel.getByRole('tab', { name: new RegExp(`^${ko('task_tab_upload')}`) }).click();
  const row = panel.locator('[data-testid=task-row][data-type=upload]').filter({ hasText: 'hello.txt' });
  await expect(row).toHaveAttribute('data-status', 'completed');
  await row.getByRole('button', { name: ko('task_move') }).click();
  await expect(member).toHaveURL(new RegExp(`/storage/${encodeURIComponent(ROOT).replace(/%/g, '%')}$`));

  // 'All read' clears the badge.
  await member.getByTestId('notification-badge').click();
  await member.getByRole('button', { name: ko('notification_read_all') }).click();
  await expect(badge(member)).toHaveAttribute('data-count', '0');
});
