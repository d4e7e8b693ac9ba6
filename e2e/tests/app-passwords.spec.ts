import path from 'node:path';
import type { Page } from '@playwright/test';
import { MASTER, expect, signIn, test, useServer } from '../fixtures.js';
import { text } from '../i18n.js';

test.use({ reducedMotion: 'reduce' });

const server = useServer();
const ROOT = '팀 문서';
/** Screenshots go here when set (to be looked at), else into the test's output folder. */
const SHOTS = process.env.BOGWAN_SHOTS_DIR;

type Locale = 'ko' | 'en';
const ko = (key: string) => text('ko', key);

async function shot(page: Page, name: string) {
  await page.screenshot({ path: SHOTS ? path.join(SHOTS, `${name}.png`) : test.info().outputPath(`${name}.png`) });
}

/** Opens Settings → Security from the user menu (present at every width). */
async function openSecurity(page: Page, locale: Locale = 'ko') {
  const t = (key: string) => text(locale, key);
  await page.getByRole('button', { name: t('user_menu') }).click();
  await page.getByRole('menuitem', { name: t('settings'), exact: true }).click();
  const dialog = page.getByRole('dialog', { name: t('settings') });
  await dialog.getByRole('button', { name: t('settings_security'), exact: true }).click();
  // On a narrow screen the dialog shows the section alone and is named by it.
  const security = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: t('settings_security'), exact: true }) });
  await expect(security.getByRole('button', { name: t('app_password_new') })).toBeVisible();
  return security;
}

/** PROPFIND /dav/ from the page with HTTP Basic, as a WebDAV client would send it; answers the status. */
function propfind(page: Page, password: string) {
  return page.evaluate(
    async ({ email, password }) => {
      // credentials 'omit': a 401 with WWW-Authenticate then answers the page instead of opening the browser's sign-in prompt.
      const res = await fetch('/dav/', {
        method: 'PROPFIND',
        credentials: 'omit',
        headers: { Depth: '1', Authorization: `Basic ${btoa(`${email}:${password}`)}` },
      });
      return res.status;
    },
    { email: MASTER.email, password },
  );
}

test.beforeAll(async () => {
  await server().createMaster();
  const login = await fetch(`${server().url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: MASTER.email, password: MASTER.password }),
  });
  const { token } = (await login.json()) as { token: string };
  const folder = await fetch(`${server().url}/api/file`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: ROOT, path: '/' }),
  });
  expect(folder.status).toBe(200);
});

test('an app password is made in the settings, shown once, opens WebDAV, and stops when revoked', async ({ page }) => {
  // Two visits to the settings, three dialogs and four WebDAV calls: longer than the default on a busy machine.
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, server());
  const settings = await openSecurity(page);
  await expect(settings.getByText(ko('app_passwords_empty'))).toBeVisible();
  await expect(settings.getByText(`${new URL(server().url).origin}/dav/`)).toBeVisible();

  await settings.getByRole('button', { name: ko('app_password_new') }).click();
  const dialog = page.getByRole('dialog', { name: ko('app_password_new') });
  await dialog.getByLabel(ko('app_password_name')).fill('노트북 탐색기');
  await dialog.getByLabel(ko('current_password')).fill('Wrong!pass123');
  await dialog.getByRole('button', { name: ko('app_password_create') }).click();
  await expect(dialog.getByText(ko('not_matched_origin_password'))).toBeVisible();
  await dialog.getByLabel(ko('current_password')).fill(MASTER.password);
  await dialog.getByRole('button', { name: ko('app_password_create') }).click();

  const created = page.getByRole('dialog', { name: ko('app_password_created_title') });
  await expect(created.getByText(ko('app_password_shown_once'))).toBeVisible();
  const password = (await created.getByTestId('new-app-password').textContent())!.trim();
  expect(password).toMatch(/^([a-z2-9]{4}-){7}[a-z2-9]{4}$/);
  await expect(created.getByText(MASTER.email)).toBeVisible();
  await shot(page, 'app-password-created-ko-1440');
  await created.getByRole('button', { name: ko('app_password_done') }).click();

  // Listed by name, never shown again.
  const list = settings.getByRole('list', { name: ko('app_passwords') });
  await expect(list.getByText('노트북 탐색기')).toBeVisible();
  await expect(list.getByText(ko('app_password_never_used'))).toBeVisible();
  await expect(page.getByText(password)).toHaveCount(0);

  expect(await propfind(page, password)).toBe(207);
  // The account password is refused over WebDAV.
  expect(await propfind(page, MASTER.password)).toBe(401);
  await page.keyboard.press('Escape');
  const again = await openSecurity(page);
  await expect(again.getByRole('list', { name: ko('app_passwords') }).getByText(/127\.0\.0\.1|::1|::ffff:127\.0\.0\.1/)).toBeVisible();

  await again.getByRole('button', { name: ko('app_password_revoke_named').replace('{{name}}', '노트북 탐색기') }).click();
  const confirm = page.getByRole('dialog', { name: ko('app_password_revoke_title') });
  await confirm.getByRole('button', { name: ko('app_password_revoke') }).click();
  await expect(page.getByText(ko('app_password_revoked'))).toBeVisible();
  await expect(again.getByText(ko('app_passwords_empty'))).toBeVisible();
  expect(await propfind(page, password)).toBe(401);
});

test('the storage browser shows the folder WebDAV address to connect as a drive', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, server());
  await page.goto(`${server().url}/storage/${encodeURIComponent(ROOT)}`);
  await page.getByRole('button', { name: ko('connect_drive') }).click();
  const dialog = page.getByRole('dialog', { name: ko('connect_drive') });
  await expect(dialog.getByTestId('dav-address')).toHaveText(`${server().url}/dav/${encodeURIComponent(ROOT)}/`);
  await shot(page, 'connect-drive-ko-1440');
  await dialog.getByRole('button', { name: ko('connect_drive_make_password') }).click();
  await expect(page.getByRole('dialog', { name: ko('settings') }).getByRole('button', { name: ko('app_password_new') })).toBeVisible();
});

for (const locale of ['ko', 'en'] as const) {
  for (const width of [1440, 390]) {
    test(`the app passwords section in ${locale} at ${width} px`, async ({ page }) => {
      const t = (key: string) => text(locale, key);
      await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
      const prefix = locale === 'en' ? '/en' : '';
      await signIn(page, server(), prefix);
      const name = `${locale} ${width}`;
      const made = await page.evaluate(
        async ({ name, password }) => {
          const token = (JSON.parse(localStorage.getItem('auth') ?? 'null') as { token: string } | null)?.token;
          const res = await fetch('/api/auth/app-passwords', {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ name, currentPassword: password }),
          });
          return res.status;
        },
        { name, password: MASTER.password },
      );
      expect(made).toBe(201);
      const settings = await openSecurity(page, locale);
      const section = settings.getByRole('list', { name: t('app_passwords') });
      await section.getByText(name).scrollIntoViewIfNeeded();
      await shot(page, `app-passwords-${locale}-${width}`);
      if (width === 390) {
        await settings.getByRole('button', { name: t('app_password_new') }).click();
        await expect(page.getByRole('dialog', { name: t('app_password_new') })).toBeVisible();
        await shot(page, `app-password-new-${locale}-${width}`);
      }
    });
  }
}
