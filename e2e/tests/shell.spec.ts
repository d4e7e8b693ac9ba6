import { expect, signIn, test, useServer } from '../fixtures.js';
import { text } from '../i18n.js';

test.use({ reducedMotion: 'reduce' });

const server = useServer();
test.beforeAll(async () => {
  await server().createMaster();
});

test('/en shows the sign-in page and the shell in English, and the choice is remembered', async ({ page }) => {
  const en = (key: string) => text('en', key);
  await page.goto(`${server().url}/en/auth/login`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('button', { name: en('login') })).toBeVisible();

  await signIn(page, server(), '/en');
  await expect(page).toHaveURL(/\/en\/?$/);
  const nav = page.getByTestId('nav-drawer');
  await expect(nav.getByText(en('nav_home'), { exact: true })).toBeVisible();
  await expect(nav.getByText(en('nav_group_admin'), { exact: true })).toBeVisible();

  // Opening a Korean address with the English choice in the cookie lands on the English page.
  await page.context().addCookies([{ name: 'i18n_redirected', value: 'en', url: server().url }]);
  await page.goto(`${server().url}/recent`);
  await expect(page).toHaveURL(/\/en\/recent$/);
  await expect(page.getByRole('heading', { name: en('nav_recent') })).toBeVisible();
});

test('the language switch on the sign-in page changes locale and keeps it for 365 days', async ({ page }) => {
  await page.goto(`${server().url}/auth/login`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
  await page.getByRole('button', { name: text('ko', 'change_language') }).click();
  const english = page.getByRole('menuitem', { name: 'English' });
  if (await english.count()) await english.click();
  await expect(page).toHaveURL(/\/en\/auth\/login$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const cookie = (await page.context().cookies()).find((c) => c.name === 'i18n_redirected');
  expect(cookie?.value).toBe('en');
  const days = (cookie!.expires - Date.now() / 1000) / 86400;
  expect(days).toBeGreaterThan(364);
  expect(days).toBeLessThan(366);
});

test('the theme switch changes the palette and survives a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await signIn(page, server());
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-theme', 'light');

  await page.getByRole('button', { name: text('ko', 'user_menu') }).click();
  await page.getByRole('menuitem', { name: text('ko', 'theme_dark') }).click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).not.toBe('rgb(255, 255, 255)');

  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'dark');

  // "System" follows the operating system's choice.
  await page.getByRole('button', { name: text('ko', 'user_menu') }).click();
  await page.getByRole('menuitem', { name: text('ko', 'theme_system') }).click();
  await expect(html).toHaveAttribute('data-theme', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveAttribute('data-theme', 'dark');
});

test('an unknown page shows the 404 page with home and back buttons', async ({ page }) => {
  await signIn(page, server());
  await page.goto(`${server().url}/recent`);
  await page.goto(`${server().url}/no/such/page`);
  await expect(page.getByText(text('ko', 'page_not_found'))).toBeVisible();
  await expect(page.getByText('404')).toBeVisible();
  await page.getByRole('button', { name: text('ko', 'go_back') }).click();
  await expect(page).toHaveURL(/\/recent$/);

  await page.goto(`${server().url}/en/missing`);
  await expect(page.getByText(text('en', 'page_not_found'))).toBeVisible();
  await page.getByRole('link', { name: text('en', 'go_home') }).click();
  await expect(page).toHaveURL(/\/en\/?$/);
});

test('the navigation collapses, expands, resizes within its limits and snaps shut below 180', async ({ page }) => {
  await signIn(page, server());
  const nav = page.getByTestId('nav-drawer');
  const width = async () => Math.round((await nav.boundingBox())!.width);
  await expect.poll(width).toBe(240);

  const toggle = page.getByRole('button', { name: text('ko', 'toggle_navigation') });
  await toggle.click();
  await expect.poll(width).toBe(56);
  await toggle.click();
  await expect.poll(width).toBe(240);

  const handle = page.getByTestId('nav-resize-handle');
  const drag = async (toX: number) => {
    const box = (await handle.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(toX, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
  };
  await drag(400);
  await expect.poll(width).toBeGreaterThanOrEqual(395);
  await drag(900);
  await expect.poll(width).toBe(600);
  await drag(150);
  await expect.poll(width).toBe(56);

  // The width is remembered.
  await toggle.click();
  await expect.poll(width).toBeGreaterThan(56);
  const kept = await width();
  await page.reload();
  await expect.poll(width).toBe(kept);
});

test('under 600 px the navigation is hidden until the toggle opens it', async ({ page }) => {
  await page.setViewportSize({ width: 500, height: 800 });
  await signIn(page, server());
  await expect(page.getByTestId('nav-drawer')).toBeHidden();
  await page.getByRole('button', { name: text('ko', 'toggle_navigation') }).click();
  await expect(page.getByTestId('nav-drawer')).toBeVisible();
});

test('signing out returns to the sign-in page and the old session stops working', async ({ page }) => {
  await signIn(page, server());
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('auth') ?? 'null')?.token as string);
  expect(token).toBeTruthy();
  await page.getByRole('button', { name: text('ko', 'user_menu') }).click();
  await page.getByRole('menuitem', { name: text('ko', 'logout') }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  const res = await fetch(`${server().url}/api/user/me`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(401);
  // A page opened without a session goes to the sign-in page, which brings the user back there afterwards.
  await page.goto(`${server().url}/home`);
  await expect(page).toHaveURL(/\/auth\/login\?next=%2Fhome$/);
});
