import type { Page } from '@playwright/test';
import { api, apiToken, expect, MASTER, signIn, test, useServer } from '../fixtures.js';
import { text } from '../i18n.js';

const ko = (key: string) => text('ko', key);
const ROOT = '드래그 팀';

test.use({ reducedMotion: 'reduce' });
test.describe.configure({ mode: 'serial' });

const server = useServer();

test.beforeAll(async () => {
  await server().createMaster();
  const token = await apiToken(server(), MASTER);
  for (const [name, path] of [
    [ROOT, '/'],
    ['계약', `/${ROOT}`],
    ['보관', `/${ROOT}`],
    ['사진', `/${ROOT}`],
  ]) {
    await api(server(), token, 'POST', '/api/file', { name, path });
  }
});

const folderUrl = (...segments: string[]) => `/storage/${segments.map(encodeURIComponent).join('/')}`;
const row = (page: Page, name: string) => page.locator(`[role=row][data-entry-name="${name}"]`);
const treeItem = (page: Page, folderPath: string) => page.locator(`[role=treeitem][data-tree-path="${folderPath}"]`);

async function confirmMove(page: Page, target: string) {
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText(target);
  await confirm.getByRole('button', { name: ko('move') }).click();
  await expect(page.getByText(ko('move_items_complete_message')).first()).toBeVisible();
}

test('a folder of the navigation tree is dragged onto another folder of the tree, then onto a folder of the list', async ({ page }) => {
  await signIn(page, server());
  await page.goto(`${server().url}${folderUrl(ROOT)}`);
  await expect(treeItem(page, `/${ROOT}/계약`)).toBeVisible();

  // Tree to tree: after the confirmation the folder lives in its new parent.
  await treeItem(page, `/${ROOT}/계약`).dragTo(treeItem(page, `/${ROOT}/보관`));
  await confirmMove(page, '보관');
  await expect(page).toHaveURL(new RegExp(`${folderUrl(ROOT, '보관')}$`));
  await expect(row(page, '계약')).toBeVisible();

  // Tree to list: the tree's folder dropped on a folder row of the list moves there too.
  await page.goto(`${server().url}${folderUrl(ROOT)}`);
  await expect(row(page, '보관')).toBeVisible();
  await treeItem(page, `/${ROOT}/사진`).dragTo(row(page, '보관'));
  await confirmMove(page, '보관');
  await page.goto(`${server().url}${folderUrl(ROOT, '보관')}`);
  await expect(row(page, '사진')).toBeVisible();
  await expect(row(page, '계약')).toBeVisible();
  await page.goto(`${server().url}${folderUrl(ROOT)}`);
  await expect(row(page, '사진')).toHaveCount(0);
  await expect(row(page, '계약')).toHaveCount(0);
});
