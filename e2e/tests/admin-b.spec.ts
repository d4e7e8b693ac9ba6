import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, MASTER, signIn, test, useServer } from '../fixtures.js';
import { text } from '../i18n.js';

const ko = (key: string) => text('ko', key);
const en = (key: string) => text('en', key);
const ROOT = 'E2E 볼륨';
const SHOTS = process.env.BOGWAN_SHOTS_DIR;

test.use({ reducedMotion: 'reduce' });
test.describe.configure({ mode: 'serial' });

const server = useServer();
let token = '';

async function api(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server().url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

async function uploadByApi(folder: string, name: string, bytes: Buffer): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries({ fileName: name, path: folder, chunkIndex: '0', totalChunks: '1', isLastChunk: 'true', fileSize: String(bytes.length) }))
    form.append(k, v);
  form.append('file', new Blob([bytes]), 'blob');
  return fetch(`${server().url}/api/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
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
});

/** Opens the settings dialog at a section from the navigation's settings button. */
async function openSection(page: Page, labelKey: string, locale: 'ko' | 'en' = 'ko') {
  const t = locale === 'ko' ? ko : en;
  await page
    .getByTestId('nav-drawer')
    .getByRole('button', { name: t('settings'), exact: true })
    .click();
  const dialog = page.getByRole('dialog', { name: t('settings') });
  await dialog.getByRole('button', { name: t(labelKey), exact: true }).click();
  await expect(dialog.getByRole('heading', { name: t(labelKey), exact: true })).toBeVisible();
  return dialog;
}

/** A required field's label: its text and MUI's asterisk. */
const required = (label: string) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`);

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

test('a volume limit set in GB stops an upload', async ({ page }) => {
  expect((await uploadByApi(`/${ROOT}`, 'existing.bin', Buffer.alloc(3000, 1))).status).toBe(200);
  await signIn(page, server());
  const dialog = await openSection(page, 'settings_volume');
  const row = dialog.getByRole('row').filter({ hasText: ROOT });
  await expect(row).toContainText(ko('volume_unlimited'));
  await row.getByRole('button', { name: ko('volume_edit_title').replace('{{name}}', ROOT) }).click();
  const edit = page.getByRole('dialog', { name: ko('volume_edit_title').replace('{{name}}', ROOT) });
  await expect(edit.getByRole('combobox', { name: ko('volume_limit_unit') })).toHaveText('GB');
  await edit.getByLabel(ko('volume_limit_amount')).fill('0.000002');
  // 0.000002 GB is 2147 bytes, below the 3000 bytes stored: the dialog says what that means.
  await expect(edit.getByText(ko('volume_limit_below_usage').split('(')[0]!)).toBeVisible();
  await shot(page, 'volume-limit-ko');
  await edit.getByRole('button', { name: ko('save'), exact: true }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('2.1 KB');
  await shot(page, 'volume-table-ko');
  await page.keyboard.press('Escape');

  await page.goto(`${server().url}/storage/${encodeURIComponent(ROOT)}`);
  await page.getByTestId('upload-input').setInputFiles({ name: 'too-big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(4096, 2) });
  await expect(page.getByText(ko('volume_exceeded_warning')).first()).toBeVisible({ timeout: 20_000 });
  const listing = await (await api('GET', `/file/list?path=${encodeURIComponent(`/${ROOT}`)}`)).json();
  expect(listing.items.map((i: { name: string }) => i.name)).toEqual(['existing.bin']);
  expect((await api('PUT', '/file/root/volume', { path: `/${ROOT}`, volume: null })).status).toBe(200);
});

test("a root folder's own version retention is set in its volume dialog, each rule on its own", async ({ page }) => {
  await signIn(page, server(), '/en');
  const dialog = await openSection(page, 'settings_volume', 'en');
  const title = en('volume_edit_title').replace('{{name}}', ROOT);
  await dialog.getByRole('row').filter({ hasText: ROOT }).getByRole('button', { name: title }).click();
  const edit = page.getByRole('dialog', { name: title });
  const retention = edit.getByRole('group', { name: en('versions_root_title') });
  // Both rules follow the global policy (10 versions, 30 days) until the folder has its own.
  await expect(retention.getByText(en('versions_root_global_count_other').replace('{{count}}', '10'))).toBeVisible();
  await expect(retention.getByText(en('versions_root_global_days_other').replace('{{count}}', '30'))).toBeVisible();
  await retention.getByRole('switch', { name: `${en('versions_root_own')}: ${en('versions_retention_count')}` }).check();
  const count = retention.getByRole('spinbutton', { name: `${en('versions_root_own')}: ${en('versions_retention_count')}` });
  await count.fill('3');
  await shot(page, 'root-retention-en');
  await edit.getByRole('button', { name: en('save'), exact: true }).click();
  await expect(edit).toBeHidden();
  const saved = await (await api('GET', `/file/root/versions?path=${encodeURIComponent(`/${ROOT}`)}`)).json();
  expect(saved).toMatchObject({ maxVersions: 3, maxAgeDays: null, effective: { maxVersions: 3, maxAgeDays: 30 } });
});

test('an incoming webhook created in the settings uploads a file', async ({ page }) => {
  await signIn(page, server());
  const dialog = await openSection(page, 'settings_incoming');
  await dialog.getByRole('button', { name: ko('webhook_incoming_create') }).click();
  const create = page.getByRole('dialog', { name: ko('webhook_incoming_create') });
  await expect(create.getByRole('button', { name: ko('create'), exact: true })).toBeDisabled();
  await create.getByLabel(ko('webhook_title'), { exact: true }).fill('스캐너');
  await create.getByLabel(required(ko('webhook_token'))).fill('scanner-e2e-01');
  await create.getByLabel(required(ko('webhook_access_token'))).fill('e2e-access-token-0123456789');
  await create.getByLabel(required(ko('webhook_path'))).fill(`/${ROOT}`);
  await expect(create.getByText(ko('webhook_access_token_help'))).toBeVisible();
  await shot(page, 'incoming-create-ko');
  await create.getByRole('button', { name: ko('create'), exact: true }).click();
  await expect(page.getByText(ko('request_success_message')).first()).toBeVisible();
  const card = dialog.getByRole('article').or(dialog.locator('.MuiCard-root')).filter({ hasText: '스캐너' });
  const url = `${server().url}/api/webhooks/incoming/scanner-e2e-01`;
  await expect(card).toContainText(url);
  await expect(card).toContainText(`/${ROOT}`);
  await expect(card).toContainText(MASTER.email);
  await shot(page, 'incoming-cards-ko');

  const form = new FormData();
  form.append('file', new Blob([Buffer.from('scanned page\n')]), '스캔.txt');
  const wrong = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer wrong-wrong-wrong-wrong' }, body: form });
  expect(wrong.status).toBe(401);
  const form2 = new FormData();
  form2.append('file', new Blob([Buffer.from('scanned page\n')]), '스캔.txt');
  const res = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer e2e-access-token-0123456789' }, body: form2 });
  expect(res.status).toBe(200);
  await page.keyboard.press('Escape');
  await page.goto(`${server().url}/storage/${encodeURIComponent(ROOT)}`);
  await expect(page.locator('[role=row][data-entry-name="스캔.txt"]')).toBeVisible();

  // Delete behind a confirmation.
  const again = await openSection(page, 'settings_incoming');
  await again.getByRole('button', { name: ko('webhook_delete_of').replace('{{name}}', '스캐너') }).click();
  const confirm = page.getByRole('dialog', { name: ko('webhook_delete_title') });
  await confirm.getByRole('button', { name: ko('delete') }).click();
  await expect(again.getByText(ko('webhook_none'))).toBeVisible();
});

test('an outgoing webhook delivers a signed event to a local receiver on an allowed host (en)', async ({ page }) => {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (piece) => (body += piece));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  try {
    await signIn(page, server(), '/en');
    const dialog = await openSection(page, 'settings_outgoing', 'en');
    // Loopback is refused until an administrator allows the host by name.
    await dialog.getByRole('button', { name: en('webhook_outgoing_create') }).click();
    let create = page.getByRole('dialog', { name: en('webhook_outgoing_create') });
    await create.getByLabel(required(en('webhook_target_url'))).fill(`http://localhost:${port}/hook`);
    await create.getByRole('button', { name: en('create'), exact: true }).click();
    await expect(create.getByText(en('webhook_target_refused'))).toBeVisible();
    await create.getByRole('button', { name: en('cancel') }).click();

    await dialog.getByLabel(en('webhook_allowed_hosts')).fill('localhost');
    await dialog.getByRole('button', { name: en('save'), exact: true }).click();
    await expect(page.getByText(en('request_success_message')).first()).toBeVisible();
    await dialog.getByRole('button', { name: en('webhook_outgoing_create') }).click();
    create = page.getByRole('dialog', { name: en('webhook_outgoing_create') });
    await create.getByLabel(en('webhook_title'), { exact: true }).fill('Audit');
    await create.getByLabel(required(en('webhook_target_url'))).fill(`http://localhost:${port}/hook`);
    await shot(page, 'outgoing-create-en');
    await create.getByRole('button', { name: en('create'), exact: true }).click();
    const secretDialog = page.getByRole('dialog', { name: en('webhook_secret_title') });
    const secret = await secretDialog.getByTestId('webhook-secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await shot(page, 'outgoing-secret-en');
    await secretDialog.getByRole('button', { name: en('close') }).click();

    expect((await uploadByApi(`/${ROOT}`, 'signed.txt', Buffer.from('signed'))).status).toBe(200);
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
    const [hit] = received;
    const signature = String(hit!.headers['x-bogwan-signature']);
    const parts = Object.fromEntries(signature.split(',').map((p) => p.split('=') as [string, string]));
    const expected = createHmac('sha256', secret).update(`${parts.t}.${hit!.body}`).digest('hex');
    expect(parts.v1).toBe(expected);
    expect(JSON.parse(hit!.body)).toMatchObject({ event: 'upload', data: { path: `/${ROOT}/signed.txt`, size: 6 } });

    await dialog.getByRole('button', { name: en('webhook_deliveries_of').replace('{{name}}', 'Audit') }).click();
    const log = page.getByRole('dialog', { name: en('webhook_deliveries_of').replace('{{name}}', 'Audit') });
    await expect(log.getByText(en('webhook_delivery_delivered'))).toBeVisible();
    await shot(page, 'outgoing-log-en');
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});

test('admin mode from the browser console unlocks the cloud bucket field', async ({ page }) => {
  await signIn(page, server());
  const dialog = await openSection(page, 'settings_cloud');
  const field = dialog.getByLabel(ko('storage_cloud_bucket'));
  await expect(field).toHaveAttribute('readonly', '');
  await expect(dialog.getByRole('button', { name: ko('save'), exact: true })).toHaveCount(0);
  await shot(page, 'cloud-locked-ko');

  page.once('dialog', (prompt) => void prompt.accept('Wrong-password-1'));
  expect(await page.evaluate(() => (window as unknown as { bogwanAdminMode: () => Promise<string> }).bogwanAdminMode())).toBe('incorrect');
  await expect(page.getByText(ko('admin_mode_incorrect_password'))).toBeVisible();
  page.once('dialog', (prompt) => void prompt.accept(MASTER.password));
  expect(await page.evaluate(() => (window as unknown as { bogwanAdminMode: () => Promise<string> }).bogwanAdminMode())).toBe('on');
  await expect(field).not.toHaveAttribute('readonly', '');
  await field.fill('no-such-bucket');
  await dialog.getByRole('button', { name: ko('save'), exact: true }).click();
  await expect(page.getByText(ko('cloud_update_failed_message'))).toBeVisible();
  await expect(dialog.getByText(ko('cloud_bucket_missing'))).toBeVisible();
  await shot(page, 'cloud-unlocked-ko');
  expect(await page.evaluate(() => (window as unknown as { bogwanAdminMode: () => Promise<string> }).bogwanAdminMode())).toBe('off');
  await expect(field).toHaveAttribute('readonly', '');
});
