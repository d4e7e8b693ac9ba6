import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, MASTER, signIn, test, useServer } from '../fixtures.js';
import { text } from '../i18n.js';

const SHOTS = process.env.BOGWAN_SHOTS_DIR;
const ROOT = '팀';
const MiB = 1024 * 1024;
const CHUNK = 10 * MiB;

test.use({ reducedMotion: 'reduce' });
test.describe.configure({ mode: 'serial' });

const server = useServer();
let token = '';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const contentOf = (size: number, fill: number) => Buffer.alloc(size, fill);
const OLD_CONTRACT = contentOf(1 * MiB, 1);
const NEW_CONTRACT = contentOf(2 * MiB, 2);

async function api(method: string, urlPath: string, body?: unknown): Promise<Response> {
  return fetch(`${server().url}/api${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

/** Uploads `size` bytes in 10 MiB chunks made one at a time (a 1 GiB file never sits in memory whole). */
async function uploadByApi(folder: string, name: string, size: number, chunkOf: (index: number, length: number) => Buffer): Promise<void> {
  const total = Math.max(1, Math.ceil(size / CHUNK));
  for (let index = 0; index < total; index++) {
    const length = Math.min(CHUNK, size - index * CHUNK);
    const form = new FormData();
    const fields = {
      fileName: name,
      path: folder,
      chunkIndex: String(index),
      totalChunks: String(total),
      isLastChunk: String(index === total - 1),
      fileSize: String(size),
    };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([chunkOf(index, length)]), 'blob');
    const res = await fetch(`${server().url}/api/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(res.status, await res.clone().text()).toBe(200);
  }
}
const uploadBytes = (folder: string, name: string, bytes: Buffer) => uploadByApi(folder, name, bytes.length, () => bytes);

async function shot(page: Page, name: string) {
  await page.screenshot({ path: SHOTS ? path.join(SHOTS, `${name}.png`) : test.info().outputPath(`${name}.png`) });
}

/** The page at 1440 px and at 390 px, one screenshot each. */
async function shotsAtBothWidths(page: Page, name: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForTimeout(300);
  await shot(page, `${name}-1440`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Opens a page after the sign-in's own navigation has settled (a goto during it is aborted). */
async function open(page: Page, urlPath: string) {
  await page.goto(`${server().url}${urlPath}`).catch(async (error: unknown) => {
    if (!String(error).includes('ERR_ABORTED')) throw error;
    await page.goto(`${server().url}${urlPath}`);
  });
}

/** A row of the file list, by the item's name. */
const entry = (page: Page, name: string) => page.locator(`[role=row][data-entry-name="${name}"]`);

async function listedNames(): Promise<string[]> {
  const res = await api('GET', `/file/list?path=${encodeURIComponent(`/${ROOT}`)}`);
  return ((await res.json()) as { items: { name: string }[] }).items.map((i) => i.name).sort();
}

async function currentHash(name: string): Promise<string> {
  const res = await api('GET', `/file/download?path=${encodeURIComponent(`/${ROOT}/${name}`)}`);
  return sha256(Buffer.from(await res.arrayBuffer()));
}

/** Picks files through the folder's upload button (the same path as a drop: one check, then the dialog). */
async function pickFiles(page: Page, files: { name: string; buffer: Buffer }[]) {
  await page.getByTestId('upload-input').setInputFiles(files.map((f) => ({ name: f.name, mimeType: 'application/octet-stream', buffer: f.buffer })));
}

test.beforeAll(async () => {
  await server().createMaster();
  const login = await fetch(`${server().url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: MASTER.email, password: MASTER.password }),
  });
  token = ((await login.json()) as { token: string }).token;
  expect((await api('POST', '/file', { name: ROOT, path: '/' })).status).toBe(200);
  await uploadBytes(`/${ROOT}`, '계약서.hwp', OLD_CONTRACT);
  await uploadBytes(`/${ROOT}`, '보고서.txt', Buffer.from('보고서 첫 판'));
  await uploadBytes(`/${ROOT}`, '메모.txt', Buffer.from('메모 첫 판'));
});

test('a drop over taken names: replace, keep both and skip are chosen before a byte moves; versions download, restore', async ({ page }) => {
  test.setTimeout(180_000);
  const chunksFor = new Map<string, number>();
  page.on('request', (request) => {
    if (request.method() !== 'POST' || !request.url().includes('/api/file/upload?')) return;
    const name = new URL(request.url()).searchParams.get('fileName') ?? '';
    chunksFor.set(name, (chunksFor.get(name) ?? 0) + 1);
  });
  await signIn(page, server());
  await open(page, `/storage/${encodeURIComponent(ROOT)}`);
  await expect(entry(page, '계약서.hwp')).toBeVisible({ timeout: 30_000 });
  await pickFiles(page, [
    { name: '계약서.hwp', buffer: NEW_CONTRACT },
    { name: '보고서.txt', buffer: Buffer.from('보고서 둘째 판') },
    { name: '메모.txt', buffer: Buffer.from('메모 둘째 판') },
    { name: '새 파일.txt', buffer: Buffer.from('새로 올림') },
  ]);

  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('upload-conflict-row')).toHaveCount(3);
  await expect(dialog).toContainText(text('ko', 'upload_conflict_replace_hint'));
  const rowOf = (name: string) => dialog.getByRole('group', { name });
  await rowOf('보고서.txt')
    .getByRole('button', { name: text('ko', 'upload_conflict_keep_both') })
    .click();
  await rowOf('메모.txt')
    .getByRole('button', { name: text('ko', 'upload_conflict_skip') })
    .click();
  await expect(dialog).toContainText('"보고서 (1).txt"');
  await shotsAtBothWidths(page, 'conflict-dialog-ko');
  await dialog.getByRole('button', { name: text('ko', 'upload') }).click();

  await expect.poll(listedNames, { timeout: 20_000 }).toEqual(['계약서.hwp', '메모.txt', '보고서 (1).txt', '보고서.txt', '새 파일.txt'].sort());
  // The skipped file sent no chunk; the others one each.
  expect(chunksFor.get('메모.txt') ?? 0).toBe(0);
  expect(chunksFor.get('계약서.hwp')).toBe(1);
  expect(chunksFor.get('새 파일.txt')).toBe(1);
  expect(await currentHash('계약서.hwp')).toBe(sha256(NEW_CONTRACT));
  expect(await currentHash('메모.txt')).toBe(sha256(Buffer.from('메모 첫 판')));

  // The replaced file's versions, from its menu.
  await page.reload();
  await entry(page, '계약서.hwp').click({ button: 'right' });
  await page.getByRole('menuitem', { name: text('ko', 'versions') }).click();
  const versions = page.getByRole('dialog');
  await expect(versions.getByTestId('version-row').first()).toContainText(text('ko', 'versions_current'));
  await expect(versions.getByTestId('version-row').first()).toContainText(sha256(NEW_CONTRACT).slice(0, 8));
  await shotsAtBothWidths(page, 'versions-dialog-ko');

  // The old version through the browser's download manager, byte for byte.
  const old = versions
    .locator('[data-testid="version-row"][data-current="false"]')
    .filter({ hasText: sha256(OLD_CONTRACT).slice(0, 8) })
    .first();
  const downloading = page.waitForEvent('download');
  await old.getByRole('button', { name: new RegExp(`^${text('ko', 'download')}`) }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('계약서.hwp');
  expect(sha256(fs.readFileSync((await download.path())!))).toBe(sha256(OLD_CONTRACT));

  // Restore it: the old content is current again, the replaced one became a version.
  await old.getByRole('button', { name: new RegExp(`^${text('ko', 'versions_restore')}`) }).click();
  await page
    .getByRole('dialog')
    .last()
    .getByRole('button', { name: text('ko', 'versions_restore') })
    .click();
  await expect.poll(() => currentHash('계약서.hwp')).toBe(sha256(OLD_CONTRACT));
  await expect(versions.locator('[data-testid="version-row"][data-current="false"]').filter({ hasText: sha256(NEW_CONTRACT).slice(0, 8) })).not.toHaveCount(0);
});

test('the usage breakdown shows versions and trash; my trash lists what I deleted', async ({ page }) => {
  test.setTimeout(180_000);
  expect((await api('POST', '/file/trash', { paths: [`/${ROOT}/새 파일.txt`] })).status).toBe(200);
  await signIn(page, server());
  const bar = page.getByTestId('nav-drawer').getByTestId('usage-bar');
  await bar.hover();
  const tooltip = page.getByRole('tooltip');
  await expect(tooltip.getByTestId('usage-breakdown')).toContainText(/이전 버전 [1-9]/);
  await expect(tooltip.getByTestId('usage-breakdown')).toContainText(/휴지통 [1-9]/);

  await open(page, '/my-trash');
  await expect(page.getByRole('heading', { name: text('ko', 'nav_my_trash') })).toBeVisible();
  await expect(page.getByText('새 파일.txt')).toBeVisible();
  await shotsAtBothWidths(page, 'my-trash-ko');
  await page.goto(`${server().url}/en/my-trash`);
  await expect(page.getByRole('heading', { name: 'My trash' })).toBeVisible();
  await shotsAtBothWidths(page, 'my-trash-en');
  await page.getByRole('button', { name: `${text('en', 'trash_restore')}: 새 파일.txt` }).click();
  await expect.poll(listedNames).toContain('새 파일.txt');

  // The volume table splits the usage too.
  await page.goto(`${server().url}/en/storage/${encodeURIComponent(ROOT)}`);
  await entry(page, '보고서.txt').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Versions' }).click();
  await expect(page.getByRole('dialog').getByTestId('version-row')).toHaveCount(1);
  await shotsAtBothWidths(page, 'versions-dialog-en');
  await page.keyboard.press('Escape');

  await pickFiles(page, [{ name: '보고서.txt', buffer: Buffer.from('third') }]);
  await expect(page.getByRole('dialog').getByTestId('upload-conflict-row')).toHaveCount(1);
  await shotsAtBothWidths(page, 'conflict-dialog-en');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
});

test('a 1 GiB download goes to the browser and keeps the page memory flat', async ({ page }) => {
  test.setTimeout(300_000);
  const size = 1024 * MiB;
  await uploadByApi(`/${ROOT}`, 'big.bin', size, (_index, length) => Buffer.alloc(length));
  await signIn(page, server());
  await open(page, `/storage/${encodeURIComponent(ROOT)}`);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const heap = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return metrics.find((m) => m.name === 'JSHeapUsedSize')!.value;
  };
  const before = await heap();
  await entry(page, 'big.bin').click({ button: 'right' });
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: text('ko', 'download') }).click();
  const download = await downloading;
  // Sampled while the bytes stream to disk, and after.
  let peak = await heap();
  const sampler = setInterval(
    () =>
      void heap().then(
        (v) => (peak = Math.max(peak, v)),
        () => undefined,
      ),
    250,
  );
  const file = await download.path();
  clearInterval(sampler);
  peak = Math.max(peak, await heap());
  expect(fs.statSync(file!).size).toBe(size);
  expect(peak - before).toBeLessThan(64 * MiB);
});
