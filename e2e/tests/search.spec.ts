import fs from 'node:fs';
import path from 'node:path';
import { expect, MASTER, signIn, test, useServer } from '../fixtures.js';
import { text } from '../i18n.js';

const ROOT = '검색 팀';
const HWP_SAMPLE = path.resolve(import.meta.dirname, '../../test-fixtures/hwp/noori.hwp');
const SHOTS = process.env.SEARCH_SHOTS_DIR;

test.use({ reducedMotion: 'reduce' });
test.describe.configure({ mode: 'serial' });

const server = useServer();

/** A one-page PDF with the given line (Helvetica). */
function pdfWith(line: string): Buffer {
  const stream = `BT /F1 18 Tf 40 100 Td (${line}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

async function apiToken(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: MASTER.email, password: MASTER.password }),
  });
  expect(res.ok).toBe(true);
  return ((await res.json()) as { token: string }).token;
}

async function uploadFile(url: string, token: string, folder: string, name: string, bytes: Buffer): Promise<void> {
  const form = new FormData();
  for (const [field, value] of Object.entries({
    fileName: name,
    path: folder,
    chunkIndex: '0',
    totalChunks: '1',
    isLastChunk: 'true',
    fileSize: String(bytes.length),
  })) {
    form.append(field, value);
  }
  form.append('file', new Blob([bytes]), 'blob');
  const res = await fetch(`${url}/api/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(res.status, await res.clone().text()).toBe(200);
}

test.beforeAll(async () => {
  const running = server();
  await running.createMaster();
  const token = await apiToken(running.url);
  const made = await fetch(`${running.url}/api/file`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: ROOT, path: '/' }),
  });
  expect(made.ok).toBe(true);
  await uploadFile(running.url, token, `/${ROOT}`, 'noori.hwp', fs.readFileSync(HWP_SAMPLE));
  await uploadFile(running.url, token, `/${ROOT}`, 'budget.pdf', pdfWith('Quarterly zanzibar budget'));
  // Extraction runs in the background after the upload: wait until both are searchable.
  await expect
    .poll(
      async () => {
        const res = await fetch(`${running.url}/api/search/keyword?keyword=${encodeURIComponent('누리')}`, { headers: { authorization: `Bearer ${token}` } });
        return ((await res.json()) as { name: string }[]).map((r) => r.name);
      },
      { timeout: 20_000 },
    )
    .toContain('noori.hwp');
  await expect
    .poll(
      async () => {
        const res = await fetch(`${running.url}/api/search/keyword?keyword=zanzibar`, { headers: { authorization: `Bearer ${token}` } });
        return ((await res.json()) as { name: string }[]).map((r) => r.name);
      },
      { timeout: 20_000 },
    )
    .toContain('budget.pdf');
});

test('two Korean syllables in the top bar find an HWP by a word inside it, and open it', async ({ page }) => {
  await signIn(page, server());
  const input = page.getByTestId('top-search-input');
  await expect(input).toHaveAttribute('maxlength', '50');
  await input.fill('누리');
  const preview = page.getByTestId('search-preview');
  const hit = preview.locator('[data-testid=search-result][data-path="/검색 팀/noori.hwp"]');
  await expect(hit).toBeVisible();
  await expect(hit).toHaveAttribute('data-match', 'content');
  await expect(hit.locator('mark').first()).toHaveText('누리');
  const box = await preview.boundingBox();
  expect(box!.height).toBeLessThanOrEqual(560);
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'top-bar-ko.png') });
  await hit.click();
  await expect(page.getByTestId('preview-overlay')).toBeVisible();
  await expect(page.locator('#preview-title')).toContainText('noori.hwp');
});

test('navigation entries match at once and Enter opens the first match', async ({ page }) => {
  await signIn(page, server());
  const input = page.getByTestId('top-search-input');
  await input.fill(text('ko', 'nav_trash').slice(0, 2));
  await expect(page.getByTestId('search-service')).toHaveCount(1);
  await input.press('Enter');
  await expect(page).toHaveURL(/\/trash$/);

  // With no service matching, Enter opens the first file found.
  await input.fill('누리');
  await expect(page.locator('[data-testid=search-result][data-path="/검색 팀/noori.hwp"]')).toBeVisible();
  await input.press('Enter');
  await expect(page.getByTestId('preview-overlay')).toBeVisible();
});

test('the English results page filters by type and opens a PDF found by a word inside it', async ({ page }) => {
  await signIn(page, server(), '/en');
  await page.goto(`${server().url}/en/search?q=zanzibar`);
  await expect(page.getByRole('heading', { name: text('en', 'search_title') })).toBeVisible();
  const hit = page.locator('[data-testid=search-result][data-path="/검색 팀/budget.pdf"]');
  await expect(hit).toBeVisible();
  await expect(hit).toContainText('Quarterly zanzibar budget');
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'results-en.png'), fullPage: true });
  await page.goto(`${server().url}/en/search?q=zanzibar&type=hwp`);
  await expect(page.getByText(text('en', 'no_search_result'))).toBeVisible();
  await page.goto(`${server().url}/en/search?q=zanzibar&type=pdf`);
  await hit.click();
  await expect(page.getByTestId('preview-overlay')).toBeVisible();
  await expect(page.getByTestId('preview-overlay')).toHaveAttribute('data-kind', 'pdf');
});
