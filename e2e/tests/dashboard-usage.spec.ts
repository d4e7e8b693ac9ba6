import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, MASTER, signIn, test, useServer } from '../fixtures.js';
import { counted, text } from '../i18n.js';

const SHOTS = process.env.BOGWAN_SHOTS_DIR;
const LIMITED = '팀 문서';
const OPEN = '공용';
const MiB = 1024 * 1024;

test.use({ reducedMotion: 'reduce' });
test.describe.configure({ mode: 'serial' });

const server = useServer();
let token = '';

async function api(method: string, urlPath: string, body?: unknown): Promise<Response> {
  return fetch(`${server().url}/api${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

async function uploadByApi(folder: string, name: string, bytes: Buffer): Promise<void> {
  const form = new FormData();
  for (const [k, v] of Object.entries({ fileName: name, path: folder, chunkIndex: '0', totalChunks: '1', isLastChunk: 'true', fileSize: String(bytes.length) }))
    form.append(k, v);
  form.append('file', new Blob([bytes]), 'blob');
  const res = await fetch(`${server().url}/api/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(res.status).toBe(200);
}

async function shot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  await page.screenshot({ path: SHOTS ? path.join(SHOTS, `${name}.png`) : test.info().outputPath(`${name}.png`), ...options });
}

test.beforeAll(async () => {
  await server().createMaster();
  const login = await fetch(`${server().url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: MASTER.email, password: MASTER.password }),
  });
  token = ((await login.json()) as { token: string }).token;
  for (const name of [LIMITED, OPEN]) expect((await api('POST', '/file', { name, path: '/' })).status).toBe(200);
  expect((await api('PUT', '/file/root/volume', { path: `/${LIMITED}`, volume: 10 * MiB })).status).toBe(200);
  await uploadByApi(`/${LIMITED}`, '보고서.txt', Buffer.alloc(2 * MiB, 7));
  await uploadByApi(`/${OPEN}`, 'big.bin', Buffer.alloc(3 * MiB, 1));
});

test('the usage bar shows the limited folder and follows an upload without a reload', async ({ page }) => {
  await signIn(page, server());
  const bar = page.getByTestId('nav-drawer').getByTestId('usage-bar');
  // One root has a limit: its figures, not "no limit" because the other has none.
  await expect(bar.getByTestId('usage-figures')).toHaveText('2 MB / 10 MB');
  await expect(bar.getByTestId('usage-percent')).toHaveText('20.00%');
  await expect(bar).toContainText(counted('ko', 'usage_limited_roots', 1));
  await expect(bar).not.toContainText(text('ko', 'usage_unlimited').replace('{{used}}', ''));

  // Uploaded elsewhere (another client): the bar follows through the realtime event.
  await uploadByApi(`/${LIMITED}`, '부록.bin', Buffer.alloc(3 * MiB, 2));
  await expect(bar.getByTestId('usage-figures')).toHaveText('5 MB / 10 MB', { timeout: 15_000 });
  await expect(bar.getByTestId('usage-percent')).toHaveText('50.00%');
  await bar.hover();
  await expect(page.getByRole('tooltip')).toContainText(text('ko', 'usage_root_unlimited').replace('{{name}}', OPEN).replace('{{used}}', '3 MB'));
  await shot(page, 'usage-bar-ko');

  await page.goto(`${server().url}/en`);
  const barEn = page.getByTestId('nav-drawer').getByTestId('usage-bar');
  await expect(barEn.getByTestId('usage-figures')).toHaveText('5 MB / 10 MB');
  await expect(barEn).toContainText('Across 1 folder with a limit');
  await barEn.hover();
  await expect(page.getByRole('tooltip')).toContainText(`${OPEN}: 3 MB (no limit)`);
  await shot(page, 'usage-bar-en');
});

test('the dashboard counts previews apart from downloads and shows the disk as df does', async ({ page }) => {
  const file = `/api/file/preview?path=${encodeURIComponent(`/${LIMITED}/보고서.txt`)}`;
  for (let i = 0; i < 2; i++) expect((await fetch(`${server().url}${file}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  const download = await fetch(`${server().url}/api/file/download?path=${encodeURIComponent(`/${LIMITED}/보고서.txt`)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(download.status).toBe(200);
  await download.arrayBuffer();

  await signIn(page, server());
  await page.goto(`${server().url}/dashboard`);
  await expect(page.getByTestId('transfer-totals')).toHaveText('업로드 3건 · 다운로드 1건 · 미리보기 2건');

  // The disk gauge: the whole file system's use, as df reports it for the data directory.
  const stats = fs.statfsSync(server().dataDir);
  const dfPercent = ((stats.blocks - stats.bavail) / stats.blocks) * 100;
  const gauge = page.getByTestId('chart-backend-server');
  await expect(gauge.getByTestId('disk-server')).toBeVisible();
  const shown = Number((await gauge.locator('text').filter({ hasText: '%' }).first().textContent())!.replace('%', ''));
  expect(Math.abs(shown - dfPercent)).toBeLessThan(1);
  await expect(gauge.getByTestId('own-share-server')).toHaveText('보관 파일 8 MB');
  await expect(page.getByTestId('chart-transfers')).toBeVisible();
  await shot(page, 'dashboard-ko', { fullPage: true });

  await page.goto(`${server().url}/en/dashboard`);
  await expect(page.getByTestId('transfer-totals')).toHaveText('3 uploads · 1 download · 2 previews');
  await expect(page.getByTestId('chart-backend-server').getByTestId('disk-server')).toContainText('Disk:');
  await expect(page.getByTestId('chart-transfers')).toBeVisible();
  await shot(page, 'dashboard-en', { fullPage: true });
});
