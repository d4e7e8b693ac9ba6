import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { MASTER, expect, signIn, test, useServer, type RunningServer } from '../fixtures.js';
import { counted, text } from '../i18n.js';

const ko = (key: string, values: Record<string, string | number> = {}) =>
  Object.entries(values).reduce((out, [name, value]) => out.replaceAll(`{{${name}}}`, String(value)), text('ko', key));

const SHARED_ROOT = 'E2E 공유';
const PRIVATE_ROOT = 'E2E 비공개';
const FILE_NAME = 'report.txt';
const FILE_TEXT = 'quarterly numbers\n';
const USER = { name: '권한 사용자', email: 'reader@example.com', password: 'Reader!2026' };
const GROUP = '열람팀';

test.use({ reducedMotion: 'reduce' });
test.describe.configure({ mode: 'serial' });

const server = useServer();

async function masterToken(s: RunningServer): Promise<string> {
  const res = await fetch(`${s.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: MASTER.email, password: MASTER.password }),
  });
  const body = (await res.json()) as { token: string };
  return body.token;
}

async function api(s: RunningServer, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${s.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<unknown>;
}

/** One small file in one chunk, as the web's uploader sends it. */
async function uploadFile(s: RunningServer, token: string, folder: string, name: string, content: string) {
  const bytes = Buffer.from(content);
  const form = new FormData();
  const fields = { fileName: name, path: folder, userId: 'x', chunkIndex: '0', totalChunks: '1', isLastChunk: 'true', fileSize: String(bytes.length) };
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  form.append('file', new Blob([bytes]), 'blob');
  const res = await fetch(`${s.url}/api/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (!res.ok) throw new Error(`upload: ${res.status} ${await res.text()}`);
}

async function openSection(page: Page, labelKey: string) {
  const dialog = page.getByRole('dialog', { name: ko('settings') });
  if (!(await dialog.isVisible())) {
    await page.getByRole('button', { name: ko('user_menu'), exact: true }).click();
    await page.getByRole('menuitem', { name: ko('settings'), exact: true }).click();
  }
  await page
    .getByRole('navigation', { name: ko('settings_sections') })
    .getByRole('button', { name: ko(labelKey), exact: true })
    .click();
  await expect(page.locator('#settings-section-title')).toHaveText(ko(labelKey));
}

/** Calls the API from the page with the signed-in session's token (what a user could try by hand). */
async function callAsPage(page: Page, method: string, path: string, body: unknown): Promise<number> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const auth = JSON.parse(localStorage.getItem('auth') ?? 'null') as { token: string } | null;
      const res = await fetch(`/api${path}`, {
        method,
        headers: { authorization: `Bearer ${auth?.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return res.status;
    },
    { method, path, body },
  );
}

test.beforeAll(async () => {
  const s = server();
  await s.createMaster();
  const token = await masterToken(s);
  await api(s, token, 'POST', '/file', { path: '/', name: SHARED_ROOT });
  await api(s, token, 'POST', '/file', { path: '/', name: PRIVATE_ROOT });
  await uploadFile(s, token, `/${SHARED_ROOT}`, FILE_NAME, FILE_TEXT);
  await uploadFile(s, token, `/${PRIVATE_ROOT}`, 'secret.txt', 'nobody else\n');
});

test('a user granted READ and DOWNLOAD through a group can list and download there, and nothing more', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, server());

  // Defaults give users nothing, so only explicit entries grant anything.
  await openSection(page, 'settings_default_permissions');
  await page.getByLabel(`${ko('default_permissions_user')} ${ko('perm_col_none')}`).check();
  await page.getByRole('button', { name: ko('save'), exact: true }).click();
  await expect(page.getByText(ko('default_permissions_saved'))).toBeVisible();

  // Create the account; the note shows the initial password it gets.
  await openSection(page, 'settings_account');
  await page.getByRole('button', { name: ko('account_create') }).click();
  const create = page.getByRole('dialog', { name: ko('account_create') });
  await expect(create.getByRole('button', { name: ko('create'), exact: true })).toBeDisabled();
  await create.getByLabel(ko('name')).fill(USER.name);
  await create.getByLabel(ko('email')).fill('not-an-email');
  await create.getByRole('button', { name: ko('create'), exact: true }).click();
  await expect(create.getByText(ko('rules_email_pattern'))).toBeVisible();
  await create.getByLabel(ko('email')).fill(USER.email);
  const { password: initialPassword } = (await api(server(), await masterToken(server()), 'GET', '/user/initial-password')) as { password: string };
  await expect(create.getByTestId('initial-password-note')).toContainText(initialPassword);
  await create.getByRole('button', { name: ko('create'), exact: true }).click();
  await expect(page.getByText(ko('account_created'))).toBeVisible();
  const userRow = page.getByRole('row').filter({ hasText: USER.email });
  await expect(userRow).toBeVisible();
  await expect(userRow.locator('[data-status=ACTIVE]')).toBeVisible();
  await expect(userRow.locator('[data-role=USER]')).toBeVisible();

  // Create the group and invite the user.
  await openSection(page, 'settings_group');
  await page.getByRole('button', { name: ko('group_create') }).click();
  const groupDialog = page.getByRole('dialog', { name: ko('group_create') });
  await groupDialog.getByLabel(ko('group_name')).fill(GROUP);
  await groupDialog.getByLabel(ko('column_description')).fill('보고서를 읽는 사람들');
  await groupDialog.getByRole('button', { name: ko('create'), exact: true }).click();
  await expect(page.getByText(ko('group_created'))).toBeVisible();
  await page.getByRole('button', { name: ko('group_actions', { name: GROUP }) }).click();
  await page.getByRole('menuitem', { name: ko('group_manage_members') }).click();
  const members = page.getByRole('dialog', { name: ko('group_members_of', { name: GROUP }) });
  await expect(members.getByText(ko('group_no_members'))).toBeVisible();
  await members.getByRole('button', { name: ko('group_invite') }).click();
  const invite = page.getByRole('dialog', { name: ko('group_invite') });
  await invite.getByLabel(USER.email).check();
  await invite.getByRole('button', { name: ko('group_invite_submit', { n: 1 }) }).click();
  await expect(members.locator(`[data-member-email="${USER.email}"]`)).toBeVisible();
  await members.getByRole('button', { name: ko('close') }).click();
  await expect(page.getByRole('row').filter({ hasText: GROUP })).toContainText(ko('member_count', { n: 1 }));
  // The default group has no delete action; the new group has one.
  await page.getByRole('button', { name: ko('group_actions', { name: 'default' }) }).click();
  await expect(page.getByRole('menuitem', { name: ko('group_delete') })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Grant the group READ and DOWNLOAD on the shared root folder.
  await openSection(page, 'settings_folder');
  const panel = page.locator(`[data-root-path="/${SHARED_ROOT}"]`);
  await panel.getByRole('button', { name: SHARED_ROOT }).click();
  // The first click can land while the panel is still settling (seen once in CI: the box stayed
  // unchecked); check() is a no-op once the box is checked, so trying again is safe.
  await expect(async () => {
    await panel.getByLabel(`${GROUP} ${ko('perm_col_read')}`).check({ timeout: 2000 });
  }).toPass({ timeout: 15_000 });
  await panel.getByLabel(`${GROUP} ${ko('perm_col_download')}`).check();
  // Clicking a two-permission column adds both; clicking it again removes both; nothing else changes.
  await panel.getByLabel(`${GROUP} ${ko('perm_col_move_copy')}`).check();
  await panel.getByLabel(`${GROUP} ${ko('perm_col_move_copy')}`).uncheck();
  await expect(panel.getByLabel(`${GROUP} ${ko('perm_col_all')}`)).toHaveAttribute('data-indeterminate', 'true');
  // Users: only role USER accounts, never the MASTER owner.
  await panel.getByRole('button', { name: ko('users'), exact: true }).click();
  await expect(panel.locator(`[data-matrix-row="${USER.email}"]`)).toBeVisible();
  await expect(panel.locator(`[data-matrix-row="${MASTER.email}"]`)).toHaveCount(0);
  await panel.getByRole('button', { name: ko('groups'), exact: true }).click();
  const saved = page.waitForRequest((request) => request.url().endsWith('/api/resource') && request.method() === 'PUT');
  await panel.getByRole('button', { name: ko('save'), exact: true }).click();
  // Only the changed group entry is sent.
  const body = (await saved).postDataJSON() as { groups?: { permissions: string[] }[]; users?: unknown[] };
  expect(body.users).toBeUndefined();
  expect(body.groups).toHaveLength(1);
  expect(body.groups?.[0]?.permissions).toEqual(['READ', 'DOWNLOAD']);
  await expect(page.getByText(ko('save_resource_complete_message'))).toBeVisible();
  await expect(panel.getByRole('button', { name: ko('save'), exact: true })).toBeDisabled();

  // The user's permission tab shows read only on the shared folder.
  await openSection(page, 'settings_account');
  await page.getByRole('button', { name: ko('account_actions', { name: USER.name }) }).click();
  await page.getByRole('menuitem', { name: ko('account_edit') }).click();
  const edit = page.getByRole('dialog', { name: ko('account_edit') });
  await edit.getByRole('tab', { name: ko('group_tab') }).click();
  await expect(edit.getByLabel(GROUP)).toBeChecked();
  await edit.getByRole('tab', { name: ko('permission_tab') }).click();
  // Through the group: read and download (a level counts only when all of its permissions are there).
  const effective = edit.locator(`[data-folder-path="/${SHARED_ROOT}"]`).getByTestId('effective-permissions');
  await expect(effective).toHaveText(`${ko('permission_read')}, ${ko('permission_download')}`);
  await expect(edit.locator(`[data-folder-path="/${PRIVATE_ROOT}"]`).getByTestId('effective-permissions')).toHaveText('—');
  await edit.getByRole('button', { name: ko('close') }).click();

  // Sign out; sign in as the user with the initial password: a new password first.
  const settings = page.getByRole('dialog', { name: ko('settings') });
  await settings.getByRole('button', { name: ko('close'), exact: true }).click();
  await expect(settings).toBeHidden();
  await page.getByRole('button', { name: ko('user_menu'), exact: true }).click();
  await page.getByRole('menuitem', { name: ko('logout') }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
  await page.getByLabel(ko('email'), { exact: true }).fill(USER.email);
  await page.getByLabel(ko('password'), { exact: true }).fill(initialPassword);
  await page.locator('button[type=submit]').click();
  const required = page.getByRole('dialog', { name: ko('security_change_password') });
  await expect(required.getByText(ko('password_change_required_notice'))).toBeVisible();
  await expect(required.getByRole('button', { name: ko('cancel') })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(required).toBeVisible();
  await required.getByLabel(ko('current_password')).fill(initialPassword);
  await required.getByLabel(ko('new_password'), { exact: true }).fill(USER.password);
  await required.getByLabel(ko('new_password_confirm')).fill(USER.password);
  await required.getByRole('button', { name: ko('save') }).click();
  await expect(page.getByText(ko('password_change_complete_message'))).toBeVisible();
  await expect(required).toBeHidden();

  // Storage: the shared root is there, the other one is not.
  await page.goto(`${server().url}/storage`);
  const entry = (name: string) => page.locator(`[role=row][data-entry-name="${name}"]`);
  await expect(entry(SHARED_ROOT)).toBeVisible();
  await expect(entry(PRIVATE_ROOT)).toHaveCount(0);
  await entry(SHARED_ROOT).dblclick();
  await expect(entry(FILE_NAME)).toBeVisible();
  // No creating: the upload button is off and there is no new-folder button.
  await expect(page.getByRole('button', { name: ko('upload'), exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: ko('create_folder') })).toHaveCount(0);
  // The item menu offers download, not rename, move or trash.
  await entry(FILE_NAME).click({ button: 'right' });
  const menu = page.getByRole('menu', { name: ko('item_actions') });
  await expect(menu.getByRole('menuitem', { name: ko('download') })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: ko('trash') })).toHaveCount(0);
  await expect(menu.getByRole('menuitem', { name: ko('rename') })).toHaveCount(0);
  const downloading = page.waitForEvent('download');
  await menu.getByRole('menuitem', { name: ko('download') }).click();
  const download = await downloading;
  const chunks: Buffer[] = [];
  for await (const chunk of (await download.createReadStream())!) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).toString()).toBe(FILE_TEXT);
  // The server refuses what the buttons do not offer.
  expect(await callAsPage(page, 'POST', '/file', { path: `/${SHARED_ROOT}`, name: 'made anyway' })).toBe(403);
  expect(await callAsPage(page, 'POST', '/file/trash', { paths: [`/${SHARED_ROOT}/${FILE_NAME}`] })).toBe(403);
  expect(await callAsPage(page, 'GET', '/user', undefined)).toBe(403);

  // Settings: a USER sees only the private sections; deleting the account takes two steps.
  await openSection(page, 'settings_delete');
  await expect(page.getByRole('navigation', { name: ko('settings_sections') }).getByRole('button', { name: ko('settings_account') })).toHaveCount(0);
  await page
    .locator('section[aria-labelledby=settings-section-title]')
    .getByRole('button', { name: ko('settings_delete'), exact: true })
    .click();
  const remove = page.locator('[aria-labelledby=delete-account-title]');
  await expect(remove.getByRole('button', { name: ko('next') })).toBeDisabled();
  await remove.getByLabel(ko('delete_account_agree')).check();
  await remove.getByRole('button', { name: ko('next') }).click();
  await remove.getByRole('button', { name: ko('settings_delete'), exact: true }).click();
  await expect(remove.getByText(ko('delete_account_reason_choice'))).toBeVisible();
  await remove.getByLabel(ko('delete_account_reason_low_usage')).check();
  await remove.getByLabel(ko('password')).fill('Wrong!pass1');
  await remove.getByRole('button', { name: ko('settings_delete'), exact: true }).click();
  await expect(remove.getByText(ko('rules_password_not_match'))).toBeVisible();
  await remove.getByLabel(ko('password')).fill(USER.password);
  await remove.getByRole('button', { name: ko('settings_delete'), exact: true }).click();
  await expect(remove.getByText(ko('delete_account_done'))).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login/, { timeout: 10_000 });
  expect(await page.evaluate(() => localStorage.getItem('auth'))).toBeNull();
});

async function sheet(rows: (string | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const worksheet = workbook.addWorksheet('users');
  worksheet.addRow(['name', 'email', 'password', 'groups']);
  for (const row of rows) worksheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

test('bulk registration from an .xlsx file: fix, remove, register, and the dialog closes when all are gone', async ({ page }) => {
  await signIn(page, server());
  await openSection(page, 'settings_account');

  // Not an Excel file: refused before anything is sent.
  await page.getByTestId('bulk-register-input').setInputFiles({ name: 'users.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b') });
  await expect(page.getByText(ko('excel_invalid_file'))).toBeVisible();

  const buffer = await sheet([
    ['김하나', 'hana@example.com', '', 'default'],
    ['Tom Lee', 'tom@example', '', ''],
    ['보관 관리자', MASTER.email, '', ''],
    ['박하나', 'hana@example.com', '', ''],
  ]);
  await page.getByTestId('bulk-register-input').setInputFiles({
    name: 'users.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer,
  });
  const bulk = page.getByRole('dialog', { name: ko('account_bulk_register') });
  await expect(bulk).toBeVisible();
  const tab = (key: string) => bulk.getByRole('tab', { name: new RegExp(ko(key)) });
  await expect(tab('bulk_list_available')).toContainText('1');
  await expect(tab('bulk_list_invalid')).toContainText('1');
  await expect(tab('bulk_list_duplicate')).toContainText('2');

  // Each duplicate says whose the email is: an existing account's, or another row's of the sheet.
  await tab('bulk_list_duplicate').click();
  await expect(bulk.locator(`[data-bulk-email="${MASTER.email}"]`)).toContainText(ko('rules_email_duplicate'));
  await expect(bulk.locator('[data-bulk-email="hana@example.com"]')).toContainText(ko('bulk_email_repeated'));
  await page.screenshot({ path: test.info().outputPath('bulk-duplicates-ko.png') });

  // Fix the invalid email and sort again: the row moves to the available list.
  await tab('bulk_list_invalid').click();
  await bulk.getByLabel(`${ko('email')} 1`).fill('tom@example.com');
  await bulk.getByRole('button', { name: ko('bulk_check_again') }).click();
  await expect(tab('bulk_list_available')).toContainText('2');
  await expect(tab('bulk_list_invalid')).toContainText('0');

  await bulk.getByRole('button', { name: ko('bulk_register_submit', { n: 2 }) }).click();
  await expect(page.getByText(counted('ko', 'bulk_registered', 2))).toBeVisible();
  await expect(bulk).toBeVisible();

  // Only the duplicates are left; removing them closes the dialog.
  await tab('bulk_list_duplicate').click();
  await bulk.getByRole('button', { name: ko('bulk_remove_row', { n: 2 }) }).click();
  await bulk.getByRole('button', { name: ko('bulk_remove_row', { n: 1 }) }).click();
  await expect(bulk).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: 'hana@example.com' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'tom@example.com' })).toBeVisible();

  // Keyword search narrows the list.
  await page.getByLabel(ko('search_keyword')).fill('hana');
  await expect(page.getByRole('row').filter({ hasText: 'tom@example.com' })).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: 'hana@example.com' })).toBeVisible();
});

test('in English: profile picture upload, refusal of a non-image, and removal through the context menu', async ({ page }) => {
  const en = (key: string) => text('en', key);
  await signIn(page, server(), '/en');
  await page.getByRole('button', { name: en('user_menu'), exact: true }).click();
  await page.getByRole('menuitem', { name: en('settings'), exact: true }).click();
  await page
    .getByRole('navigation', { name: en('settings_sections') })
    .getByRole('button', { name: en('settings_profile'), exact: true })
    .click();
  const section = page.locator('section[aria-labelledby=settings-section-title]');
  await expect(section.getByLabel(en('email'))).toHaveAttribute('readonly', '');
  // Save stays off until the name changes.
  await expect(section.getByRole('button', { name: en('save'), exact: true })).toBeDisabled();

  await section.getByRole('button', { name: en('profile_avatar_edit') }).click();
  const dialog = page.getByRole('dialog', { name: en('profile_avatar_edit') });
  await dialog.getByTestId('avatar-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
  await expect(dialog.getByText(en('profile_image_only'))).toBeVisible();
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');
  await dialog.getByTestId('avatar-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByText(en('profile_avatar_saved'))).toBeVisible();
  const image = dialog.getByTestId('avatar-preview').locator('img');
  await expect(image).toBeVisible();
  const src = await image.getAttribute('src');
  expect((await fetch(new URL(src!, server().url))).headers.get('content-type')).toMatch(/^image\//);

  await dialog.getByTestId('avatar-preview').click({ button: 'right' });
  await page.getByRole('menuitem', { name: en('profile_avatar_delete') }).click();
  // Deleting asks first.
  const confirm = page.getByRole('dialog', { name: en('profile_avatar_delete') });
  await expect(confirm).toContainText(en('profile_avatar_delete_confirm'));
  await confirm.getByRole('button', { name: en('profile_avatar_delete') }).click();
  await expect(page.getByText(en('profile_avatar_deleted'))).toBeVisible();
  await expect(dialog.getByTestId('avatar-preview').locator('img')).toHaveCount(0);
});
