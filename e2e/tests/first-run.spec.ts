import { MASTER, expect, test, useServer } from '../fixtures.js';
import { text } from '../i18n.js';

const server = useServer();

test('a fresh server leads through setup to the Korean home screen', async ({ page }) => {
  await page.goto(server().url);
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ko');

  const ko = (key: string) => text('ko', key);
  await page.getByLabel(ko('setup_token'), { exact: true }).fill('wrong-token-wrong-token');
  await page.getByLabel(ko('name'), { exact: true }).fill(MASTER.name);
  await page.getByLabel(ko('email'), { exact: true }).fill(MASTER.email);
  await page.getByLabel(ko('password'), { exact: true }).fill(MASTER.password);
  await page.getByLabel(ko('password_confirm'), { exact: true }).fill(MASTER.password);
  await page.locator('button[type=submit]').click();
  await expect(page.getByText(ko('setup_token_invalid'))).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login$/);

  await page.getByLabel(ko('setup_token'), { exact: true }).fill(server().setupToken());
  await page.locator('button[type=submit]').click();

  await expect(page).not.toHaveURL(/\/auth\/login/);
  await expect(page.getByTestId('nav-drawer')).toBeVisible();
  await expect(page.getByTestId('nav-drawer').getByText(ko('nav_home'), { exact: true })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ko');

  // The session survives a reload; the server no longer asks for setup.
  await page.reload();
  await expect(page.getByTestId('nav-drawer')).toBeVisible();
  const status = await (await fetch(`${server().url}/api/auth/setup`)).json();
  expect(status).toEqual({ required: false });
});

test('once the first account exists the sign-in page shows the sign-in form, not setup', async ({ page }) => {
  // This worker's server already has its account (first test); use a fresh page on /auth/login.
  await page.goto(`${server().url}/auth/login`);
  const ko = (key: string) => text('ko', key);
  // Setup is done: the sign-in form is shown instead, with no token field.
  await expect(page.getByLabel(ko('email'), { exact: true })).toBeVisible();
  await expect(page.getByLabel(ko('setup_token'), { exact: true })).toHaveCount(0);
});
