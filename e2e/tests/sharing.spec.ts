import fs from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { api, apiToken, expect, MASTER, type RunningServer, test, useServer } from '../fixtures.js';
import { counted, text } from '../i18n.js';

const ko = (key: string) => text('ko', key);
const server = useServer();
const MEMBER = { name: '이요청', email: 'requester@example.com', password: 'Member!2026x' };
const ROOT = '공유 팀';

test.use({ reducedMotion: 'reduce' });
test.describe.configure({ mode: 'serial' });

async function signedIn(browser: Browser, running: RunningServer, user: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext({ acceptDownloads: true })).newPage();
  await page.goto(`${running.url}/auth/login`);
  await page.getByLabel(ko('email'), { exact: true }).fill(user.email);
  await page.getByLabel(ko('password'), { exact: true }).fill(user.password);
  await page.locator('button[type=submit]').click();
  await expect(page).not.toHaveURL(/\/auth\/login/);
  return page;
}

const folderUrl = (running: RunningServer, ...segments: string[]) => `${running.url}/storage/${segments.map(encodeURIComponent).join('/')}`;
const row = (page: Page, name: string) => page.locator(`[role=row][data-entry-name="${name}"]`);

async function uploadFile(page: Page, name: string, content: string) {
  await page.getByTestId('upload-input').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(content) });
  await expect(row(page, name)).toBeVisible({ timeout: 30_000 });
  // The task panel floats above dialogs: put it away once the upload is done.
  const panel = page.getByTestId('task-panel');
  if (await panel.isVisible()) await panel.getByRole('button', { name: ko('close') }).click();
}

async function menuAction(page: Page, name: string, action: string) {
  await row(page, name).click({ button: 'right' });
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

test('share a file with a password and a limit of one: the visitor downloads once, then sees the exceeded message', async ({ browser }) => {
  const running = server();
  await running.createMaster();
  const masterToken = await apiToken(running, MASTER);
  await api(running, masterToken, 'POST', '/api/file', { name: ROOT, path: '/' });

  const owner = await signedIn(browser, running, MASTER);
  await owner.goto(folderUrl(running, ROOT));
  await uploadFile(owner, '보고서.txt', '분기 보고서 내용');
  await menuAction(owner, '보고서.txt', ko('share_create_title'));
  const dialog = owner.getByRole('dialog', { name: ko('share_create_title') });
  await dialog.getByLabel(ko('share_use_password')).check();
  await dialog.getByLabel(ko('share_password'), { exact: true }).fill('열려라 참깨');
  await dialog.getByLabel(ko('share_download_limit')).fill('1');
  await dialog.getByRole('button', { name: ko('share_create') }).click();
  await expect(dialog.getByText(ko('share_created_message'))).toBeVisible();
  const address = await dialog.getByTestId('share-link-address').inputValue();
  expect(address).toMatch(/\/share\/[A-Za-z0-9_-]{43}$/);
  await dialog.getByRole('button', { name: ko('close') }).click();

  // A fresh browser, signed in as nobody.
  const visitor = await (await browser.newContext({ acceptDownloads: true })).newPage();
  await visitor.goto(address);
  await expect(visitor.getByText(ko('share_password_title'))).toBeVisible();
  await expect(visitor.getByText('보고서.txt')).toHaveCount(0);
  await visitor.getByLabel(ko('share_password')).fill('틀린 비밀번호');
  await visitor.getByRole('button', { name: ko('share_open') }).click();
  await expect(visitor.getByText(ko('share_password_wrong'))).toBeVisible();
  await visitor.getByLabel(ko('share_password')).fill('열려라 참깨');
  await visitor.getByRole('button', { name: ko('share_open') }).click();
  await expect(visitor.getByTestId('share-name')).toHaveText('보고서.txt');
  await expect(visitor.getByText(counted('ko', 'share_downloads_left', 1), { exact: false })).toBeVisible();
  await visitor.screenshot({ path: test.info().outputPath('share-page-ko.png') });

  const downloading = visitor.waitForEvent('download');
  await visitor.getByRole('button', { name: ko('download'), exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('보고서.txt');
  expect(fs.readFileSync((await download.path())!, 'utf8')).toBe('분기 보고서 내용');
  await expect(visitor.getByTestId('share-problem')).toHaveText(ko('share_download_exceeded'));
  await visitor.screenshot({ path: test.info().outputPath('share-exceeded-ko.png') });

  // The owner's list shows the link used up.
  await owner.goto(`${running.url}/shared`);
  const linkRow = owner.getByRole('row').filter({ hasText: '보고서.txt' });
  await expect(linkRow.getByText(ko('share_state_exceeded'))).toBeVisible();
  await expect(linkRow.getByText('1 / 1')).toBeVisible();
});

test('lock a folder, request a download as a user, approve as the security manager (notified), then download', async ({ browser }) => {
  const running = server();
  const masterToken = await apiToken(running, MASTER);
  await api(running, masterToken, 'POST', '/api/user', MEMBER);
  await api(running, masterToken, 'POST', '/api/file', { name: '기밀', path: `/${ROOT}` });

  const manager = await signedIn(browser, running, MASTER);
  await manager.goto(folderUrl(running, ROOT, '기밀'));
  await uploadFile(manager, '설계도.txt', '비밀 설계도');
  await manager.goto(folderUrl(running, ROOT));
  await menuAction(manager, '기밀', ko('lock_folder'));
  await expect(manager.getByText(ko('lock_complete_message'))).toBeVisible();

  const member = await signedIn(browser, running, MEMBER);
  await member.goto(folderUrl(running, ROOT, '기밀'));
  await expect(row(member, '설계도.txt')).toBeVisible();
  // Without an approval the download is refused.
  await menuAction(member, '설계도.txt', ko('download'));
  await expect(member.getByText(ko('secure_approval_required'))).toBeVisible();

  await menuAction(member, '설계도.txt', ko('request_download_title'));
  const ask = member.getByRole('dialog', { name: ko('request_download_title') });
  await ask.getByLabel(ko('request_reason')).fill('감사 자료 제출');
  await ask.getByRole('button', { name: ko('request_send') }).click();
  await expect(member.getByText(ko('request_sent_message'))).toBeVisible();

  // The security manager is notified live and approves from /requests.
  await manager.getByTestId('notification-badge').click();
  await expect(manager.getByTestId('notification-item').filter({ hasText: MEMBER.name }).filter({ hasText: '설계도.txt' })).toBeVisible({ timeout: 20_000 });
  await manager.keyboard.press('Escape');
  await manager.goto(`${running.url}/requests?tab=1`);
  const pending = manager.getByRole('row').filter({ hasText: '설계도.txt' });
  await expect(pending.getByText(ko('request_status_pending'))).toBeVisible();
  await manager.screenshot({ path: test.info().outputPath('requests-approve-ko.png') });
  await pending.click({ button: 'right' });
  await manager.getByRole('menuitem', { name: ko('request_approve') }).click();
  await expect(manager.getByText(ko('request_approved_message'))).toBeVisible();
  await expect(pending.getByText(ko('request_status_approved'))).toBeVisible();

  // The requester sees the approval and downloads.
  await expect(member.getByTestId('notification-badge')).toHaveAttribute('data-count', '1', { timeout: 20_000 });
  await member.getByTestId('notification-badge').click();
  await expect(member.getByTestId('notification-item').filter({ hasText: '승인' })).toBeVisible();
  await member.keyboard.press('Escape');
  await member.goto(`${running.url}/requests`);
  await expect(member.getByRole('row').filter({ hasText: '설계도.txt' }).getByText(ko('request_status_approved'))).toBeVisible();
  await member.goto(folderUrl(running, ROOT, '기밀'));
  const downloading = member.waitForEvent('download');
  await menuAction(member, '설계도.txt', ko('download'));
  const download = await downloading;
  expect(fs.readFileSync((await download.path())!, 'utf8')).toBe('비밀 설계도');
});
