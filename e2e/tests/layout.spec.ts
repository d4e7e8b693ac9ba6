import type { Browser, Locator, Page } from '@playwright/test';
import { api, expect, MASTER, type RunningServer, signIn, test, useServer } from '../fixtures.js';
import { text } from '../i18n.js';

const server = useServer();
const ROOT = 'E2E 배치';
const SECURE = '보안';
const LONG_NAME = '2026년 4분기 예산 보고서 최종 검토본.txt';
const FILES = [LONG_NAME, 'notes.txt', '회의록.txt'];
const LOCALES = ['ko', 'en'] as const;
const WIDTHS = [390, 768, 1024, 1440] as const;

test.use({ reducedMotion: 'reduce' });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

async function masterToken(running: RunningServer): Promise<string> {
  const res = await fetch(`${running.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: MASTER.email, password: MASTER.password }),
  });
  return ((await res.json()) as { token: string }).token;
}

/** A signed-in page at one width; phones get a touch screen. */
async function openPage(browser: Browser, running: RunningServer, locale: 'ko' | 'en', width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width < 768 ? 844 : 900 }, hasTouch: width < 768, acceptDownloads: true });
  const page = await context.newPage();
  await signIn(page, running, locale === 'en' ? '/en' : '');
  return page;
}

const prefixOf = (locale: 'ko' | 'en') => (locale === 'en' ? '/en' : '');
const row = (page: Page, name: string) => page.locator(`[role=row][data-entry-name="${name}"]`);
const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`) });

/** Rests a finger on an element until its menu opens (a long-press, as a phone sends it). */
async function longPress(page: Page, target: Locator): Promise<void> {
  const box = (await target.boundingBox())!;
  const point = { clientX: box.x + box.width / 3, clientY: box.y + box.height / 2, pointerType: 'touch', isPrimary: true, pointerId: 7, bubbles: true };
  await target.dispatchEvent('pointerdown', point);
  await expect(page.getByRole('menu')).toBeVisible();
  await target.dispatchEvent('pointerup', point);
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

/**
 * Every visible element ends inside the window, unless a box of its own that scrolls or
 * clips sideways holds it (a wide table scrolls in its card). Returns the offenders.
 */
async function offScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const heldBy = (element: Element): boolean => {
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(parent).overflowX)) return true;
      }
      return false;
    };
    const out: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || getComputedStyle(element).visibility === 'hidden') continue;
      if ((rect.right > width + 1 || rect.left < -1) && !heldBy(element)) {
        out.push(`${element.tagName.toLowerCase()}.${String(element.className).slice(0, 60)} [${Math.round(rect.left)}, ${Math.round(rect.right)}]`);
      }
    }
    return out;
  });
}

test('seed a root folder with files whose names are long', async ({ browser }) => {
  const running = server();
  await running.createMaster();
  const token = await masterToken(running);
  await api(running, token, 'POST', '/api/file', { name: ROOT, path: '/' });
  // A request with every date column, for the requests page.
  await api(running, token, 'POST', '/api/file', { name: SECURE, path: `/${ROOT}` });
  await api(running, token, 'PUT', '/api/file/lock', { path: `/${ROOT}/${SECURE}`, lock: true });
  await api(running, token, 'POST', '/api/request', { type: 'share', paths: [`/${ROOT}/${SECURE}`], reason: '외부 감사 자료 공유' });
  const page = await openPage(browser, running, 'ko', 1440);
  await page.goto(`${running.url}/storage/${encodeURIComponent(ROOT)}`);
  for (const name of FILES) {
    await page.getByTestId('upload-input').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(`${name} 내용`) });
    await expect(row(page, name)).toBeVisible({ timeout: 30_000 });
  }
  await page.context().close();
});

for (const locale of LOCALES) {
  for (const width of WIDTHS) {
    const tag = `${locale}-${width}`;
    const t = (key: string) => text(locale, key);

    test(`${tag}: file names are readable, the share dialog fits, requests and settings fit the window`, async ({ browser }) => {
      const running = server();
      const page = await openPage(browser, running, locale, width);
      await page.goto(`${running.url}${prefixOf(locale)}/storage/${encodeURIComponent(ROOT)}`);

      // Every name is on screen and wide enough to read.
      for (const name of FILES) {
        const nameText = row(page, name).getByText(name, { exact: true });
        // The first listing of a folder can take a while on a busy machine.
        await expect(nameText).toBeVisible({ timeout: 30_000 });
        const cell = row(page, name).getByRole('gridcell').first();
        expect((await cell.boundingBox())!.width).toBeGreaterThan(100);
      }
      await noSidewaysScroll(page);
      expect(await offScreen(page)).toEqual([]);
      await shot(page, `storage-${tag}`);

      // The share dialog, from the item menu: full screen on a phone.
      if (width < 768) await longPress(page, row(page, LONG_NAME));
      else await row(page, LONG_NAME).click({ button: 'right' });
      await page.getByRole('menuitem', { name: t('share_create_title'), exact: true }).click();
      const dialog = page.getByRole('dialog', { name: t('share_create_title') });
      await expect(dialog).toBeVisible();
      const box = (await dialog.boundingBox())!;
      if (width < 768) {
        expect(box.width).toBe(width);
        expect(box.height).toBe(844);
      } else {
        expect(box.width).toBeLessThan(width);
      }
      await shot(page, `share-dialog-${tag}`);
      await dialog.getByRole('button', { name: t('cancel'), exact: true }).click();
      await expect(dialog).toBeHidden();

      // The selected row's action bar floats over the list, clear of the side navigation.
      const bar = page.getByRole('toolbar', { name: t('selection_actions') });
      await expect(bar).toBeVisible();
      const barBox = (await bar.boundingBox())!;
      const listBox = (await page.getByTestId('file-explorer').boundingBox())!;
      expect(barBox.x).toBeGreaterThanOrEqual(listBox.x);
      expect(barBox.x + barBox.width).toBeLessThanOrEqual(listBox.x + listBox.width);
      await expect(bar.getByRole('button', { name: t('selection_clear'), exact: true })).toBeInViewport({ ratio: 1 });
      await shot(page, `action-bar-${tag}`);

      // The requests page keeps its rows and actions inside the window.
      await page.goto(`${running.url}${prefixOf(locale)}/requests`);
      await expect(page.getByRole('heading', { name: t('nav_requests'), level: 1 })).toBeVisible();
      const rowMenu = page.getByRole('button', { name: t('row_actions'), exact: true });
      await expect(rowMenu).toBeVisible();
      const menuBox = (await rowMenu.boundingBox())!;
      expect(menuBox.x + menuBox.width).toBeLessThanOrEqual(width);
      await noSidewaysScroll(page);
      expect(await offScreen(page)).toEqual([]);
      await shot(page, `requests-${tag}`);
      // Columns that do not fit are reached by scrolling the table's own box: the last one
      // then shows whole, left of the row menu that stays at the right edge.
      const table = page.getByRole('table').first();
      const lastHeader = table.getByRole('columnheader').filter({ hasText: t('request_expires_at') });
      await table.evaluate((element) => {
        let box = element.parentElement;
        while (box && box.scrollWidth <= box.clientWidth) box = box.parentElement;
        box?.scrollTo({ left: box.scrollWidth });
      });
      const headerBox = (await lastHeader.boundingBox())!;
      expect(headerBox.x).toBeGreaterThanOrEqual(0);
      expect(headerBox.x + headerBox.width).toBeLessThanOrEqual(menuBox.x);
      await shot(page, `requests-scrolled-${tag}`);

      // The settings dialog.
      await page.getByRole('button', { name: t('user_menu'), exact: true }).click();
      await page.getByRole('menuitem', { name: t('settings'), exact: true }).click();
      const settings = page.getByRole('dialog', { name: t('settings') });
      await expect(settings).toBeVisible();
      if (width < 768) expect((await settings.boundingBox())!.width).toBe(width);
      await shot(page, `settings-${tag}`);
      await page.context().close();
    });
  }
}

test('a long-press on a phone selects the file and opens its menu; the action bar renames without a right-click', async ({ browser }) => {
  const running = server();
  const page = await openPage(browser, running, 'ko', 390);
  const t = (key: string) => text('ko', key);
  await page.goto(`${running.url}/storage/${encodeURIComponent(ROOT)}`);
  const target = row(page, 'notes.txt');
  await expect(target).toBeVisible();
  await expect(page.getByTestId('selection-action-bar')).toHaveCount(0);

  await longPress(page, target);
  await expect(target).toHaveAttribute('aria-selected', 'true');
  // The item's menu (its entries also show their keyboard shortcut).
  await expect(page.getByRole('menuitem').filter({ hasText: t('rename') })).toBeVisible();
  await shot(page, 'long-press-menu-ko-390');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();

  const bar = page.getByRole('toolbar', { name: t('selection_actions') });
  await expect(bar).toBeVisible();
  for (const key of ['download', 'share_create_title', 'move', 'copy', 'rename', 'trash']) {
    await expect(bar.getByRole('button', { name: t(key), exact: true })).toBeVisible();
  }
  await shot(page, 'action-bar-ko-390');
  await bar.getByRole('button', { name: t('rename'), exact: true }).click();
  const rename = page.getByRole('dialog', { name: t('rename') });
  await expect(rename).toBeVisible();
  await expect(rename.getByRole('textbox')).toHaveValue('notes.txt');
  await rename.getByRole('button', { name: t('cancel') }).click();

  await bar.getByRole('button', { name: t('selection_clear'), exact: true }).click();
  await expect(bar).toBeHidden();
  await expect(target).toHaveAttribute('aria-selected', 'false');
  await page.context().close();
});

test('with a mouse, a click selects and the action bar serves the same actions', async ({ browser }) => {
  const running = server();
  const page = await openPage(browser, running, 'en', 1440);
  const t = (key: string) => text('en', key);
  await page.goto(`${running.url}/en/storage/${encodeURIComponent(ROOT)}`);
  await row(page, '회의록.txt').click();
  const bar = page.getByRole('toolbar', { name: t('selection_actions') });
  await expect(bar).toBeVisible();
  await bar.getByRole('button', { name: t('copy'), exact: true }).click();
  await expect(page.getByRole('dialog', { name: t('copy_to') })).toBeVisible();
  await shot(page, 'action-bar-copy-en-1440');
  await page.keyboard.press('Escape');
  await bar.getByRole('button', { name: t('item_actions'), exact: true }).click();
  await expect(page.getByRole('menuitem', { name: t('star'), exact: true })).toBeVisible();
  await page.context().close();
});
