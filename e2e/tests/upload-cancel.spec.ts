import { CHUNK_SIZE } from '@bogwan/contracts';
import { api, apiToken, expect, MASTER, signIn, test, useServer } from '../fixtures.js';
import { text } from '../i18n.js';

const ko = (key: string) => text('ko', key);
const ROOT = '업로드 팀';

test.use({ reducedMotion: 'reduce' });

const server = useServer();

test.beforeAll(async () => {
  await server().createMaster();
  await api(server(), await apiToken(server(), MASTER), 'POST', '/api/file', { name: ROOT, path: '/' });
});

test('a canceled upload shows how much had reached the server', async ({ page }) => {
  await signIn(page, server());
  await page.goto(`${server().url}/storage/${encodeURIComponent(ROOT)}`);
  // The first chunk goes through; the others hang until the upload is canceled.
  let chunks = 0;
  let sent = 0;
  await page.route(/\/api\/file\/upload(\?.*)?$/, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    chunks += 1;
    if (chunks === 1) {
      await route.continue();
      sent += 1;
      return;
    }
    await new Promise(() => undefined);
  });
  await page
    .getByTestId('upload-input')
    .setInputFiles({ name: '큰 파일.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(CHUNK_SIZE * 2 + 1234) });
  const row = page.getByTestId('upload-task').filter({ hasText: '큰 파일.bin' });
  await expect(row).toBeVisible();
  await expect.poll(() => sent, { timeout: 20_000 }).toBe(1);
  await expect(row).toContainText('%');
  await expect(row).not.toContainText(' 0%');
  await row.getByRole('button', { name: ko('cancel') }).click();
  await expect(row).toHaveAttribute('data-status', 'canceled');
  // "취소됨 · <sent> / <size> 전송됨", with the first chunk counted.
  const prefix = ko('upload_canceled_detail').split('{{sent}}')[0]!;
  await expect(row).toContainText(prefix);
  await expect(row).toContainText(/ 전송됨/);
  await expect(row).not.toContainText(`${prefix}0 B`);
  await page.screenshot({ path: test.info().outputPath('upload-canceled-ko.png') });
});
