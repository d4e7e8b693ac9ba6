import type { Page } from '@playwright/test';
import { api, expect, MASTER, type RunningServer, signIn, test, useServer } from '../fixtures.js';
import { text } from '../i18n.js';

// Server-made text in the reader's language: the same stored notifications (an upload
// batch of three files, a group invitation) and the policy list, read in Korean and in
// English, at 1440 and 390 px. Screenshots are kept under the test's output path.

const server = useServer();
const ROOT = '영업부';

async function uploadFile(running: RunningServer, token: string, folder: string, name: string) {
  const form = new FormData();
  const bytes = Buffer.from(`${name} 내용`);
  const fields = { fileName: name, path: folder, userId: 'x', chunkIndex: '0', totalChunks: '1', isLastChunk: 'true', fileSize: String(bytes.length) };
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([bytes]), 'blob');
  const res = await fetch(`${running.url}/api/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(res.status).toBe(200);
}

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`) });

test.beforeAll(async () => {
  const running = server();
  await running.createMaster();
  const login = await fetch(`${running.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: MASTER.email, password: MASTER.password }),
  });
  const token = ((await login.json()) as { token: string }).token;
  await api(running, token, 'POST', '/api/file', { name: ROOT, path: '/' });
  for (const name of ['계약서.hwp', '견적서.xlsx', '회의록 초안.docx']) await uploadFile(running, token, `/${ROOT}`, name);
});

for (const locale of ['ko', 'en'] as const) {
  for (const width of [1440, 390]) {
    test(`the notification bell and the policy list in ${locale} at ${width} px`, async ({ page }) => {
      test.setTimeout(120_000);
      const t = (key: string) => text(locale, key);
      await page.setViewportSize({ width, height: 900 });
      await signIn(page, server(), locale === 'en' ? '/en' : '');
      await page.getByTestId('notification-badge').click();
      const item = page.getByTestId('notification-item');
      const batch = locale === 'ko' ? `/${ROOT}에 파일 3개를 업로드했습니다` : `3 files uploaded to /${ROOT}`;
      await expect(item.filter({ hasText: batch })).toHaveCount(1);
      // One notification for the batch, the folder in bold.
      await expect(item.locator('b').filter({ hasText: `/${ROOT}` })).toHaveCount(1);
      await shot(page, `notifications-${locale}-${width}`);
      await page.keyboard.press('Escape');

      if (width === 390) return;
      await page.getByRole('button', { name: t('user_menu'), exact: true }).click();
      await page.getByRole('menuitem', { name: t('settings'), exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: t('settings_policy'), exact: true }).click();
      await dialog.getByPlaceholder(t('policy_search')).fill(locale === 'ko' ? '업로드' : 'upload');
      await expect(dialog.getByRole('cell', { name: t('policy_desc_file_upload'), exact: true })).toBeVisible();
      // The category column names the category in the reader's language, never its id.
      await expect(dialog.getByRole('cell', { name: t('policy_cat_file'), exact: true }).first()).toBeVisible();
      await expect(dialog.getByRole('cell', { name: 'file', exact: true })).toHaveCount(0);
      await shot(page, `policies-${locale}-${width}`);
    });
  }
}
