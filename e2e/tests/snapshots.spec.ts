import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, MASTER, signIn, test, useServer } from '../fixtures.js';
import { counted, text } from '../i18n.js';

const ko = (key: string) => text('ko', key);
const en = (key: string) => text('en', key);
const ROOT = '백업 팀';
const FILE = '계약서 2026.bin';
const PLAN = '매일 밤 백업';
const REPO_PASSWORD = 'vault-password-2026';

test.use({ reducedMotion: 'reduce' });
test.describe.configure({ mode: 'serial' });

const server = useServer();
// Made when the tests start, not when the file is loaded: Playwright also loads it to list
// the tests, in a process that runs no afterAll.
let repoParent = '';
const fileBytes = Buffer.alloc(3 * 1024 * 1024 + 77);
for (let i = 0, x = 5; i < fileBytes.length; i++) {
  x = (x * 1103515245 + 12345) & 0x7fffffff;
  fileBytes[i] = x >> 16;
}
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

test.beforeAll(async () => {
  repoParent = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-e2e-vault-'));
  await server().createMaster();
  // Seed through the API: a root folder with one file.
  const base = server().url;
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: MASTER.email, password: MASTER.password }),
  });
  const { token } = (await login.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}` };
  const root = await fetch(`${base}/api/file`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: ROOT, path: '/' }),
  });
  expect(root.status).toBe(200);
  const form = new FormData();
  const fields = { fileName: FILE, path: `/${ROOT}`, userId: 'x', chunkIndex: '0', totalChunks: '1', isLastChunk: 'true', fileSize: String(fileBytes.length) };
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([fileBytes]), 'blob');
  const uploaded = await fetch(`${base}/api/file/upload`, { method: 'POST', headers: auth, body: form });
  expect(uploaded.status).toBe(200);
});
test.afterAll(() => {
  if (repoParent) fs.rmSync(repoParent, { recursive: true, force: true });
});

const planCard = (page: Page) => page.locator(`[data-testid=snapshot-plan][data-plan-name="${PLAN}"]`);
const row = (page: Page, name: string) => page.locator(`[role=row][data-entry-name="${name}"]`);

async function downloadSha(page: Page): Promise<string> {
  await page.goto(`${server().url}/storage/${encodeURIComponent(ROOT)}`);
  await row(page, FILE).click({ button: 'right' });
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: ko('download') }).click();
  return sha256(fs.readFileSync(await (await downloading).path()));
}

test('create a plan with a schedule, run it, delete a file, restore it, get the same bytes back', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, server());
  const before = await downloadSha(page);
  expect(before).toBe(sha256(fileBytes));

  // A plan with one schedule, through the dialog; the form names what is missing.
  await page.goto(`${server().url}/snapshot`);
  await expect(page.getByText(ko('snapshot_plan_none'))).toBeVisible();
  await page.getByRole('button', { name: ko('snapshot_plan_new') }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: ko('save') }).click();
  await expect(dialog.getByRole('alert')).toHaveText(ko('snapshot_name_required'));
  await dialog.getByLabel(ko('snapshot_plan_name')).fill(PLAN);
  await dialog.getByLabel(ko('snapshot_location_path')).fill(path.join(repoParent, 'repo'));
  await dialog.getByLabel(ko('snapshot_password'), { exact: true }).fill(REPO_PASSWORD);
  await dialog.getByLabel(ko('snapshot_password_confirm')).fill(REPO_PASSWORD);
  for (let i = 0; i < 5; i++) await dialog.getByRole('button', { name: ko('snapshot_schedule_add') }).click();
  await expect(dialog.getByRole('button', { name: ko('snapshot_schedule_add') })).toBeDisabled();
  await expect(dialog.getByText(ko('snapshot_schedule_limit'))).toBeVisible();
  for (let i = 0; i < 4; i++)
    await dialog
      .getByRole('button', { name: ko('snapshot_schedule_remove') })
      .first()
      .click();
  const schedule = dialog.getByTestId('schedule-row');
  await expect(schedule).toHaveCount(1);
  await schedule.getByRole('button', { name: ko('day_sat') }).click();
  await schedule.getByLabel(ko('snapshot_schedule_time')).fill('03:30');
  await dialog.getByRole('button', { name: ko('save') }).click();
  await expect(page.getByText(ko('snapshot_plan_created'))).toBeVisible();
  await expect(planCard(page)).toContainText('03:30');
  await expect(planCard(page)).toContainText(ko('day_sat'));

  // Run it; the card follows the run to completion.
  await planCard(page)
    .getByRole('button', { name: ko('snapshot_run_now') })
    .click();
  await expect(planCard(page).locator('[data-status=completed]')).toBeVisible({ timeout: 60_000 });
  await expect(planCard(page)).toContainText(counted('ko', 'snapshot_files_count', 1));
  await page.getByRole('tab', { name: ko('snapshot_runs') }).click();
  await expect(page).toHaveURL(/tab=1/);
  await expect(page.getByRole('table').getByText(PLAN)).toBeVisible();

  // Delete the file (to the trash).
  await page.goto(`${server().url}/storage/${encodeURIComponent(ROOT)}`);
  await row(page, FILE).click();
  await page.keyboard.press('Delete');
  await page
    .getByRole('dialog')
    .getByRole('button', { name: ko('trash') })
    .click();
  await expect(row(page, FILE)).toHaveCount(0);

  // Restore it with the wizard: snapshot, item, original place.
  await page.goto(`${server().url}/restore`);
  await page
    .getByRole('radiogroup', { name: ko('restore_step_snapshot') })
    .getByRole('radio')
    .first()
    .check();
  await page.getByRole('button', { name: ko('next'), exact: true }).click();
  await page
    .getByRole('list', { name: ko('restore_items') })
    .getByText(ROOT)
    .click();
  await page.getByRole('checkbox', { name: FILE }).check();
  await page.getByRole('button', { name: ko('next'), exact: true }).click();
  await expect(page.getByLabel(ko('restore_target_original'))).toBeChecked();
  // Over a live file of the same name: keep both by default, or replace (the live content becomes a version).
  await expect(page.getByLabel(ko('restore_conflict_keep_both'))).toBeChecked();
  await page.getByLabel(ko('restore_conflict_replace')).check();
  await page.screenshot({ path: test.info().outputPath('restore-target-ko.png') });
  await page.getByRole('button', { name: ko('restore_start') }).click();
  await expect(page.getByText(ko('restore_started'))).toBeVisible();
  const history = page.getByRole('region', { name: ko('restore_history') });
  await expect(history.locator('[data-status=completed]')).toBeVisible({ timeout: 60_000 });

  // The file is back with the same SHA-256.
  expect(await downloadSha(page)).toBe(sha256(fileBytes));
});

test('the screens read in English too', async ({ page }) => {
  await signIn(page, server(), '/en');
  await page.goto(`${server().url}/en/snapshot`);
  await expect(page.getByRole('heading', { name: en('nav_snapshot') })).toBeVisible();
  await expect(planCard(page)).toContainText(en('snapshot_type_incremental'));
  await expect(planCard(page)).toContainText(en('day_sat'));
  await page.goto(`${server().url}/en/restore`);
  await expect(page.getByRole('region', { name: en('restore_wizard'), exact: true }).getByText(en('restore_step_items'))).toBeVisible();
  await expect(page.getByRole('region', { name: en('restore_history') }).locator('[data-status=completed]')).toBeVisible();
});
