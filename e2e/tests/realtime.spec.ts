import type { Browser, Page } from '@playwright/test';
import { api, apiToken, expect, MASTER, type RunningServer, test, useServer } from '../fixtures.js';
import { text } from '../i18n.js';

const ko = (key: string) => text('ko', key);
const server = useServer();

const MEMBER = { name: '이사용', email: 'member@example.com', password: 'Member!2026x' };
const ROOT = '실시간 팀';

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
  const masterToken = await apiToken(running, MASTER);
  const account = await api(running, masterToken, 'POST', '/api/user', MEMBER);
  await api(running, masterToken, 'POST', '/api/file', { name: ROOT, path: '/' });

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

  // The administrator invites the user to a group: the user's bell rings without a reload.
  const group = await api(running, masterToken, 'POST', '/api/group', { name: '기획팀', description: '' });
  await api(running, masterToken, 'POST', `/api/group/${group._id}/members`, { userIds: [account._id] });
  await expect(badge(member)).toHaveAttribute('data-count', '1', { timeout: 20_000 });
  await expect(badge(admin)).toHaveAttribute('data-count', '0');

  // The user uploads a file; the finished upload task notifies them, live.
  await member.goto(`${running.url}/storage/${encodeURIComponent(ROOT)}`);
  await member.getByTestId('upload-input').setInputFiles({ name: 'hello.txt', mimeType: 'text/plain', buffer: Buffer.from('hello realtime\n') });
  await expect(badge(member)).toHaveAttribute('data-count', '2', { timeout: 20_000 });
  await expect(badge(admin)).toHaveAttribute('data-count', '0');

  await member.getByTestId('notification-badge').click();
  const item = member.getByTestId('notification-item');
  await expect(item).toHaveCount(2);
  await expect(item.filter({ hasText: '기획팀' })).toHaveCount(1);
  await expect(item.locator('b').filter({ hasText: 'hello.txt' })).toHaveCount(1);
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
