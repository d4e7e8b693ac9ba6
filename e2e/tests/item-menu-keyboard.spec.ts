import type { Locator, Page } from '@playwright/test';
import { api, apiToken, expect, MASTER, signIn, test, useServer } from '../fixtures.js';
import { text } from '../i18n.js';

const ko = (key: string) => text('ko', key);
const ROOT = '키보드 팀';
const FOLDERS = ['가나', '다라', '마바'];

test.use({ reducedMotion: 'reduce' });
test.describe.configure({ mode: 'serial' });

const server = useServer();

test.beforeAll(async () => {
  await server().createMaster();
  const token = await apiToken(server(), MASTER);
  await api(server(), token, 'POST', '/api/file', { name: ROOT, path: '/' });
  for (const name of FOLDERS) await api(server(), token, 'POST', '/api/file', { name, path: `/${ROOT}` });
});

const row = (page: Page, name: string) => page.locator(`[role=row][data-entry-name="${name}"]`);
const card = (page: Page, name: string) => page.locator(`[role=gridcell][data-entry-name="${name}"]`);
const itemMenu = (page: Page) => page.getByRole('menu', { name: ko('item_actions') });

/** Opens the item menu of the focused item with `key`, checks it is open at that item with its first item focused, closes it with Escape. */
async function menuByKey(page: Page, item: Locator, key: string) {
  await expect(item).toBeFocused();
  await page.keyboard.press(key);
  const menu = itemMenu(page);
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  // Anchored at the item, not at the pointer (which has not moved from the page's corner).
  const itemBox = (await item.boundingBox())!;
  const menuBox = (await menu.boundingBox())!;
  expect(Math.abs(menuBox.x - itemBox.x)).toBeLessThan(40);
  expect(Math.abs(menuBox.y - (itemBox.y + itemBox.height))).toBeLessThan(40);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(item).toBeFocused();
}

test('Shift+F10 and the Menu key open the focused item’s menu; focus comes back to the item, and to the selection bar’s more button', async ({ page }) => {
  await signIn(page, server());
  await page.goto(`${server().url}/storage/${encodeURIComponent(ROOT)}`);
  await expect(row(page, FOLDERS[2]!)).toBeVisible();

  // To the list with the keyboard, then down to the second row.
  await page.getByTestId('file-explorer').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const second = row(page, FOLDERS[1]!);
  await expect(second).toHaveAttribute('aria-selected', 'true');

  await menuByKey(page, second, 'Shift+F10');
  await menuByKey(page, second, 'ContextMenu');

  // An action that stays on the page (star) gives the focus back to the row too.
  await page.keyboard.press('Shift+F10');
  await itemMenu(page)
    .getByRole('menuitem', { name: ko('star'), exact: true })
    .press('Enter');
  await expect(page.getByText(ko('star_complete_message'))).toBeVisible();
  await expect(itemMenu(page)).toBeHidden();
  await expect(second).toBeFocused();

  // The menu key on a row that is not selected selects it first, and its menu acts on it.
  await page.keyboard.press('ArrowUp');
  const first = row(page, FOLDERS[0]!);
  await expect(first).toBeFocused();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(second).toHaveAttribute('aria-selected', 'false');

  // The selection bar's "more" menu: after Escape the focus is back on its button.
  const more = page.getByTestId('selection-action-bar').getByRole('button', { name: ko('item_actions') });
  await more.focus();
  await page.keyboard.press('Enter');
  await expect(itemMenu(page)).toBeVisible();
  await expect(itemMenu(page).getByRole('menuitem').first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(itemMenu(page)).toBeHidden();
  await expect(more).toBeFocused();
  await expect(page.getByTestId('selection-action-bar')).toBeVisible();

  // The grid view: the same keys on a focused card.
  await page.getByRole('button', { name: ko('view_grid') }).click();
  await expect(card(page, FOLDERS[0]!)).toBeVisible();
  await page.getByTestId('file-explorer').focus();
  await page.keyboard.press('ArrowDown');
  const secondCard = card(page, FOLDERS[1]!);
  await expect(secondCard).toBeFocused();
  await menuByKey(page, secondCard, 'Shift+F10');
  await menuByKey(page, secondCard, 'ContextMenu');
  await page.getByRole('button', { name: ko('view_list') }).click();
});
