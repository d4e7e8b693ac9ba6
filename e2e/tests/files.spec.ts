import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { expect, signIn, test, useServer } from '../fixtures.js';
import { text } from '../i18n.js';

const ko = (key: string) => text('ko', key);
const MIB = 1024 * 1024;
const ROOT = 'E2E 팀';
const FOLDER = '보관함';
const HWP_SAMPLE = path.resolve(import.meta.dirname, '../../test-fixtures/hwp/noori.hwp');

test.use({ reducedMotion: 'reduce' });
test.describe.configure({ mode: 'serial' });

const server = useServer();
test.beforeAll(async () => {
  await server().createMaster();
});

/** Deterministic bytes, the same in Node and in the page. */
function patternBytes(size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i += 1) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = x >> 16;
  }
  return bytes;
}

/** A one-page PDF with a line of text, offsets computed so any reader accepts it. */
function tinyPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    null,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const stream = 'BT /F1 24 Tf 40 100 Td (Hello PDF) Tj ET';
  objects[3] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(out.length);
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A 2×2 red PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');

async function xlsxBuffer(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('매출');
  sheet.addRow(['지역', '금액']);
  sheet.addRow(['서울', 1200]);
  sheet.addRow(['부산', 800]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const folderUrl = (...segments: string[]) => `/storage/${segments.map(encodeURIComponent).join('/')}`;
const row = (page: Page, name: string) => page.locator(`[role=row][data-entry-name="${name}"]`);
const treeItem = (page: Page, folderPath: string) => page.locator(`[role=treeitem][data-tree-path="${folderPath}"]`);

async function uploadWithButton(page: Page, name: string, buffer: Buffer, mimeType = 'application/octet-stream') {
  await page.getByTestId('upload-input').setInputFiles({ name, mimeType, buffer });
  await expect(row(page, name)).toBeVisible({ timeout: 30_000 });
}

async function openPreview(page: Page, name: string) {
  await row(page, name).dblclick();
  const overlay = page.getByTestId('preview-overlay');
  await expect(overlay).toBeVisible();
  return overlay;
}

async function closePreview(page: Page) {
  await page
    .getByTestId('preview-overlay')
    .getByRole('button', { name: ko('close') })
    .click();
  await expect(page.getByTestId('preview-overlay')).toBeHidden();
}

test('folders, uploads (drop, button, resume), previews, move by tree, download, trash', async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, server());

  // A root folder and a folder inside it, through the create-folder dialog.
  await page.goto(`${server().url}/storage`);
  await page
    .getByRole('button', { name: ko('create_root_folder') })
    .first()
    .click();
  const create = page.getByRole('dialog');
  await create.getByLabel(ko('folder_name')).fill('bad/name');
  await expect(create.getByRole('button', { name: ko('create') })).toBeDisabled();
  await expect(create.getByText(ko('rules_folder'))).toBeVisible();
  await create.getByLabel(ko('folder_name')).fill(ROOT);
  await create.getByRole('button', { name: ko('create') }).click();
  await expect(page.getByText(ko('create_folder_complete_message'))).toBeVisible();
  await row(page, ROOT).dblclick();
  await expect(page).toHaveURL(new RegExp(`${folderUrl(ROOT)}$`));
  await page.getByRole('button', { name: ko('create_folder') }).click();
  await page.getByRole('dialog').getByLabel(ko('folder_name')).fill(FOLDER);
  await page
    .getByRole('dialog')
    .getByRole('button', { name: ko('create') })
    .click();
  await expect(row(page, FOLDER)).toBeVisible();
  // The navigation tree shows the new folders along the path.
  await expect(treeItem(page, `/${ROOT}/${FOLDER}`)).toBeVisible();

  // 25 MiB by drag and drop: a synthetic drop of a Blob built in the page.
  await page.evaluate(async (size) => {
    const bytes = new Uint8Array(size);
    let x = 7;
    for (let i = 0; i < size; i += 1) {
      x = (Math.imul(x, 1103515245) + 12345) & 0x7fffffff;
      bytes[i] = x >> 16;
    }
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], 'dropped.bin', { type: 'application/octet-stream' }));
    const target = document.querySelector('[data-testid=file-explorer]') as HTMLElement;
    for (const type of ['dragenter', 'dragover']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, 25 * MIB);
  await expect(row(page, 'dropped.bin')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('[data-testid=upload-task][data-status=done]')).toHaveCount(1);

  // 25 MiB with the upload button.
  const buttonBytes = patternBytes(25 * MIB, 11);
  await uploadWithButton(page, 'button.bin', buttonBytes);

  // Reload in the middle of an upload: it resumes from the status call.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 2 * MIB,
  });
  const firstChunk = page.waitForResponse((r) => r.url().includes('/api/file/upload?') && r.ok(), { timeout: 60_000 });
  await page.getByTestId('upload-input').setInputFiles({ name: 'resumed.bin', mimeType: 'application/octet-stream', buffer: patternBytes(25 * MIB, 23) });
  await firstChunk;
  const statusCall = page.waitForRequest((r) => r.url().includes('/api/file/upload/status') && r.url().includes('resumed.bin'), {
    timeout: 30_000,
  });
  await page.reload();
  await statusCall;
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(row(page, 'resumed.bin')).toBeVisible({ timeout: 90_000 });
  await expect(page.locator('[data-testid=upload-task]').filter({ hasText: 'resumed.bin' })).toHaveAttribute('data-status', 'done');

  // Previews: image, PDF, HWP (Korean text), XLSX.
  await uploadWithButton(page, 'pixel.png', PNG, 'image/png');
  let overlay = await openPreview(page, 'pixel.png');
  await expect(overlay.locator('img')).toBeVisible();
  expect(await overlay.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
  await closePreview(page);

  await uploadWithButton(page, 'hello.pdf', tinyPdf(), 'application/pdf');
  overlay = await openPreview(page, 'hello.pdf');
  await expect(overlay.getByTestId('pdf-preview').locator('canvas')).toHaveCount(1, { timeout: 20_000 });
  await closePreview(page);

  await uploadWithButton(page, 'noori.hwp', fs.readFileSync(HWP_SAMPLE));
  overlay = await openPreview(page, 'noori.hwp');
  await expect(overlay.getByTestId('hwp-preview').getByText('한국형발사체').first()).toBeVisible({ timeout: 20_000 });
  await closePreview(page);

  await uploadWithButton(page, 'sales.xlsx', await xlsxBuffer());
  overlay = await openPreview(page, 'sales.xlsx');
  await expect(overlay.getByTestId('xlsx-preview').getByText('부산')).toBeVisible({ timeout: 20_000 });
  await expect(overlay.getByRole('tab', { name: '매출' })).toBeVisible();
  await closePreview(page);

  // Move by dragging a row onto a folder of the tree.
  await row(page, 'button.bin').dragTo(treeItem(page, `/${ROOT}/${FOLDER}`));
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText(FOLDER);
  await confirm.getByRole('button', { name: ko('move') }).click();
  await expect(page.getByText(ko('move_items_complete_message'))).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${folderUrl(ROOT, FOLDER)}$`));
  await expect(row(page, 'button.bin')).toBeVisible();

  // Download and compare the SHA-256.
  await row(page, 'button.bin').click({ button: 'right' });
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: ko('download') }).click();
  const download = await downloading;
  const saved = fs.readFileSync(await download.path());
  expect(createHash('sha256').update(saved).digest('hex')).toBe(createHash('sha256').update(buttonBytes).digest('hex'));

  // Trash it with the Delete key after the confirmation.
  await row(page, 'button.bin').click();
  await page.keyboard.press('Delete');
  await page
    .getByRole('dialog')
    .getByRole('button', { name: ko('trash') })
    .click();
  await expect(page.getByText(ko('trash_complete_message'))).toBeVisible();
  await expect(row(page, 'button.bin')).toHaveCount(0);
});

test('an uploaded HTML or SVG file runs no script when previewed', async ({ page, browser }) => {
  await signIn(page, server());
  await page.goto(`${server().url}${folderUrl(ROOT)}`);
  let dialogs = 0;
  page.on('dialog', (dialog) => {
    dialogs += 1;
    void dialog.dismiss();
  });
  const html = '<!doctype html><html><body><h1>hello</h1><script>window.__pwned = 1; alert(1)</script><img src=x onerror="window.__pwned=2"></body></html>';
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="window.__pwned=3"><script>window.__pwned = 4; alert(4)</script><rect width="10" height="10" fill="red"/></svg>';
  await uploadWithButton(page, 'evil.html', Buffer.from(html), 'text/html');
  await uploadWithButton(page, 'evil.svg', Buffer.from(svg), 'image/svg+xml');

  let overlay = await openPreview(page, 'evil.html');
  await expect(overlay.getByTestId('text-preview')).toContainText('window.__pwned');
  await closePreview(page);
  overlay = await openPreview(page, 'evil.svg');
  await expect(overlay.locator('img')).toBeVisible();
  await page.waitForTimeout(500);
  await closePreview(page);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(dialogs).toBe(0);

  // Opened straight in a tab, the preview bytes stay inert too (nosniff and a sandboxing CSP).
  const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('auth') ?? '{}') as { token?: string }).token ?? '');
  const direct = await browser.newContext({ extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
  const tab = await direct.newPage();
  let tabDialogs = 0;
  tab.on('dialog', (dialog) => {
    tabDialogs += 1;
    void dialog.dismiss();
  });
  for (const name of ['evil.html', 'evil.svg']) {
    const response = await tab.goto(`${server().url}/api/file/preview?path=${encodeURIComponent(`/${ROOT}/${name}`)}`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['x-content-type-options']).toBe('nosniff');
    await tab.waitForTimeout(300);
    expect(await tab.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  }
  expect(tabDialogs).toBe(0);
  await direct.close();
});

test('a video preview streams from a ticket URL, without the token in the address', async ({ page }) => {
  await signIn(page, server());
  await page.goto(`${server().url}${folderUrl(ROOT)}`);
  // A short WebM recorded in the page from a canvas (no encoder needed on the machine).
  const webm = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 120;
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm' });
    const parts: Blob[] = [];
    recorder.ondataavailable = (event) => parts.push(event.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start(100);
    let frame = 0;
    const timer = setInterval(() => {
      context.fillStyle = `hsl(${(frame++ * 10) % 360}, 80%, 50%)`;
      context.fillRect(0, 0, 160, 120);
    }, 40);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    recorder.stop();
    await stopped;
    clearInterval(timer);
    return Array.from(new Uint8Array(await new Blob(parts).arrayBuffer()));
  });
  await uploadWithButton(page, 'clip.webm', Buffer.from(webm), 'video/webm');

  const streamed = page.waitForRequest((request) => request.url().includes('/api/file/preview/stream?'));
  const overlay = await openPreview(page, 'clip.webm');
  const request = await streamed;
  expect(request.url()).toContain('ticket=');
  expect(request.headers()['authorization']).toBeUndefined();
  const video = overlay.locator('video');
  await expect(video).toHaveAttribute('src', /^\/api\/file\/preview\/stream\?/);
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  await closePreview(page);
});
