import { api, insertEntries } from '../../bench/files/harness.mjs';
import { expect, MASTER, signIn, test, useServer } from '../fixtures.js';
import { counted } from '../i18n.js';

const ENTRIES = 10_000;
const ROOT = '대용량';
const FOLDER = '만 개';

test.use({ reducedMotion: 'reduce' });

const server = useServer();
test.beforeAll(async () => {
  await server().createMaster();
  const { url, dataDir } = server();
  const { token, user } = await api(url, 'POST', '/api/auth/login', null, { email: MASTER.email, password: MASTER.password });
  await api(url, 'POST', '/api/file', token, { name: ROOT, path: '/' });
  await api(url, 'POST', '/api/file', token, { name: FOLDER, path: `/${ROOT}` });
  const root = (await api(url, 'GET', '/api/file/root', token)).find((r: { name: string }) => r.name === ROOT);
  const folder = (await api(url, 'GET', `/api/file/list?path=${encodeURIComponent(`/${ROOT}`)}`, token)).items[0];
  await insertEntries(dataDir, folder._id, root._id, user._id, ENTRIES);
});

test('a folder of 10,000 entries opens, draws only what is on screen, and reaches its last entry', async ({ page }) => {
  await signIn(page, server());
  await page.goto(`${server().url}/storage/${encodeURIComponent(ROOT)}/${encodeURIComponent(FOLDER)}`);
  const grid = page.getByRole('grid');
  await expect(grid).toHaveAttribute('aria-rowcount', String(ENTRIES));
  await expect(page.getByText(counted('ko', 'items_count', 10_000))).toBeVisible();
  await expect(page.locator('[role=row][data-entry-name="file-000000.txt"]')).toBeVisible();

  // The column headers are buttons, which browsers give a font of their own: they must use
  // the bundled one, or Korean is drawn as empty boxes where no Korean system font exists.
  const headerFont = await page
    .getByRole('columnheader')
    .first()
    .locator('button')
    .evaluate((el) => getComputedStyle(el).fontFamily);
  expect(headerFont).toContain('Pretendard');

  // Virtualised: a screenful of rows in the page, not ten thousand.
  const scroller = page.getByTestId('file-list-scroller');
  expect(await scroller.locator('[role=row]').count()).toBeLessThan(100);

  // Dragging the scroll bar to the bottom brings the last entry, fetched for that place.
  await scroller.evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
  await expect(page.locator('[role=row][data-entry-name="file-009999.txt"]')).toBeVisible();
  expect(await scroller.locator('[role=row]').count()).toBeLessThan(100);

  // And the middle, far from anything loaded before.
  await scroller.evaluate((element) => {
    element.scrollTop = element.scrollHeight / 2;
  });
  await expect(page.locator('[role=row][data-entry-name^="file-0049"], [role=row][data-entry-name^="file-0050"]').first()).toBeVisible();
});
