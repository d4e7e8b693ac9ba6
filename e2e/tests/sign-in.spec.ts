import net from 'node:net';
import { generate } from 'otplib';
import { SMTPServer } from 'smtp-server';
import { type CDPSession, type Page } from '@playwright/test';
import { MASTER, type RunningServer, expect, test, useServer } from '../fixtures.js';
import { text } from '../i18n.js';

test.use({ reducedMotion: 'reduce' });

const ko = (key: string) => text('ko', key);
const en = (key: string) => text('en', key);

/** Fills the password form of the sign-in page and submits it. */
async function submitPassword(page: Page, server: RunningServer, password = MASTER.password): Promise<void> {
  await page.goto(`${server.url}/auth/login`);
  await page.getByLabel(ko('email'), { exact: true }).fill(MASTER.email);
  await page.getByLabel(ko('password'), { exact: true }).fill(password);
  await page.getByRole('button', { name: ko('login'), exact: true }).click();
}

async function expectHome(page: Page): Promise<void> {
  await expect(page).not.toHaveURL(/\/auth\/login/);
  await expect(page.getByTestId('nav-drawer')).toBeVisible();
}

/** Opens Settings → Security from the navigation's settings button. */
async function openSecurity(page: Page) {
  await page
    .getByTestId('nav-drawer')
    .getByRole('button', { name: ko('settings'), exact: true })
    .click();
  const dialog = page.getByRole('dialog', { name: ko('settings') });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: ko('settings_security'), exact: true }).click();
  await expect(dialog.getByRole('heading', { name: ko('settings_security'), exact: true })).toBeVisible();
  return dialog;
}

async function signOut(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: ko('user_menu') }).click();
  await page.getByRole('menuitem', { name: ko('logout') }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
}

/** Answers the dialog that asks for the current password again before a sign-in setting changes. */
async function confirmPassword(page: Page, password = MASTER.password): Promise<void> {
  const dialog = page.getByRole('dialog', { name: ko('reauth_title') });
  await dialog.getByLabel(ko('current_password')).fill(password);
  await dialog.getByRole('button', { name: ko('reauth_confirm'), exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** Turns on a second factor in the open Security section. */
async function chooseSecondFactor(page: Page, dialog: ReturnType<Page['getByRole']>, key: 'mfa_email' | 'mfa_otp') {
  const option = dialog.getByRole('radio', { name: ko(key) });
  await expect(option).toBeEnabled();
  await option.check();
  await confirmPassword(page);
  await expect(page.getByText(ko('security_second_factor_saved'))).toBeVisible();
  await expect(option).toBeChecked();
}

test.describe('password sign-in and lockout', () => {
  const server = useServer();
  test.beforeAll(async () => {
    await server().createMaster();
  });

  test('a wrong password is refused, the right one signs in and survives a reload', async ({ page }) => {
    await submitPassword(page, server(), 'Wrong!pass99');
    await expect(page.getByRole('alert').filter({ hasText: ko('login_failure') })).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/login$/);

    await page.getByLabel(ko('password'), { exact: true }).fill(MASTER.password);
    await page.getByRole('button', { name: ko('login'), exact: true }).click();
    await expectHome(page);
    await page.reload();
    await expectHome(page);
  });

  test('the password is changed in Security: wrong current password, rules, then success', async ({ page }) => {
    await submitPassword(page, server());
    await expectHome(page);
    const settings = await openSecurity(page);
    await settings.getByRole('button', { name: ko('security_change_password') }).click();
    const dialog = page.getByRole('dialog', { name: ko('security_change_password') });
    const save = dialog.getByRole('button', { name: ko('save') });
    await expect(save).toBeDisabled();

    await dialog.getByLabel(ko('current_password'), { exact: true }).fill('Wrong!pass99');
    await dialog.getByLabel(ko('new_password'), { exact: true }).fill('short');
    await dialog.getByLabel(ko('new_password_confirm'), { exact: true }).fill('shorter');
    await expect(save).toBeEnabled();
    await expect(dialog.getByText(ko('rules_password_not_match'))).toBeVisible();
    await expect(dialog.getByText(ko('rules_password_pattern'))).toBeVisible();

    const next = 'Bogwan!2027';
    await dialog.getByLabel(ko('new_password'), { exact: true }).fill(next);
    await dialog.getByLabel(ko('new_password_confirm'), { exact: true }).fill(next);
    await dialog.getByLabel(ko('new_password_confirm'), { exact: true }).press('Enter');
    await expect(dialog.getByText(ko('not_matched_origin_password'))).toBeVisible();

    await dialog.getByLabel(ko('current_password'), { exact: true }).fill(MASTER.password);
    await dialog.getByLabel(ko('current_password'), { exact: true }).press('Enter');
    await expect(page.getByText(ko('password_change_complete_message'))).toBeVisible();
    await expect(dialog).toBeHidden();

    // This session goes on with the new token; the new password is the one that signs in.
    await page.reload();
    await expectHome(page);
    await signOut(page);
    await submitPassword(page, server(), MASTER.password);
    await expect(page.getByRole('alert').filter({ hasText: ko('login_failure') })).toBeVisible();
    await submitPassword(page, server(), next);
    await expectHome(page);
  });

  test('the fifth wrong password in a row restricts sign-in, and the restriction is shown', async ({ page }) => {
    await page.goto(`${server().url}/auth/login`);
    await page.getByLabel(ko('email'), { exact: true }).fill(MASTER.email);
    await page.getByLabel(ko('password'), { exact: true }).fill('Wrong!pass99');
    const submit = page.getByRole('button', { name: ko('login'), exact: true });
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const answer = page.waitForResponse((r) => r.url().endsWith('/api/auth/login'));
      await submit.click();
      expect((await answer).status()).toBe(401);
      await expect(page.getByRole('alert').filter({ hasText: ko('login_failure') })).toBeVisible();
    }
    const fifth = page.waitForResponse((r) => r.url().endsWith('/api/auth/login'));
    await submit.click();
    expect((await fifth).status()).toBe(423);
    const restricted = page.getByRole('alert').filter({ hasText: ko('login_attempt_restrict') });
    await expect(restricted).toBeVisible();
    await expect(restricted.getByText(ko('login_restricted_title'))).toBeVisible();

    // While restricted even the right password is refused with the same message.
    await page.getByLabel(ko('password'), { exact: true }).fill('Bogwan!2027');
    await submit.click();
    await expect(page.getByRole('alert').filter({ hasText: ko('login_attempt_restrict') })).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/login$/);
  });
});

/** The next code of the authenticator app that has not been used yet (a code is accepted once). */
async function freshTotp(secret: string, used: Set<string>): Promise<string> {
  for (;;) {
    const code = await generate({ secret });
    if (!used.has(code)) {
      used.add(code);
      return code;
    }
    await new Promise((r) => setTimeout(r, 30_000 - (Date.now() % 30_000) + 200));
  }
}

test.describe('authenticator app', () => {
  const server = useServer();
  test.beforeAll(async () => {
    await server().createMaster();
  });

  test('registered in Security, turned on, then asked for after the password', async ({ page }) => {
    test.setTimeout(120_000);
    await submitPassword(page, server());
    await expectHome(page);
    const settings = await openSecurity(page);
    await expect(settings.getByRole('radio', { name: ko('mfa_otp') })).toBeDisabled();

    await settings.getByRole('button', { name: ko('security_otp_register'), exact: true }).click();
    // A wrong current password is refused in the dialog; the right one opens the QR code.
    const reauth = page.getByRole('dialog', { name: ko('reauth_title') });
    await reauth.getByLabel(ko('current_password')).fill('Wrong!pass99');
    await reauth.getByRole('button', { name: ko('reauth_confirm'), exact: true }).click();
    await expect(reauth.getByText(ko('not_matched_origin_password'))).toBeVisible();
    await confirmPassword(page);
    const dialog = page.getByRole('dialog', { name: ko('security_otp_register_title') });
    await expect(dialog.getByRole('img', { name: ko('security_otp_qr_alt') })).toHaveAttribute('src', /^data:image\/png;base64,/);
    const secret = (await dialog.getByTestId('otp-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);

    const used = new Set<string>();
    const field = dialog.getByLabel(ko('otp_code'), { exact: true });
    // A wrong code is refused in the dialog.
    const wrong = String((Number(await generate({ secret })) + 1) % 1_000_000).padStart(6, '0');
    await field.fill(wrong);
    await expect(dialog.getByText(ko('login_failure_otp'))).toBeVisible();
    await field.fill(await freshTotp(secret, used));
    await expect(page.getByText(ko('register_otp_app_complete_message'))).toBeVisible();
    await expect(dialog).toBeHidden();

    await chooseSecondFactor(page, settings, 'mfa_otp');
    await signOut(page);

    await submitPassword(page, server());
    await expect(page.getByRole('heading', { name: ko('login_code_title') })).toBeVisible();
    await expect(page.getByText(ko('login_code_otp_description'))).toBeVisible();
    const code = page.getByLabel(ko('otp_code'), { exact: true });
    // Fewer than six digits: nothing is sent.
    let verifyCalls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/auth/verify/otp')) verifyCalls += 1;
    });
    await code.fill('12345');
    await page.waitForTimeout(500);
    expect(verifyCalls).toBe(0);
    await code.fill(await freshTotp(secret, used));
    await expectHome(page);
    expect(verifyCalls).toBe(1);
  });
});

interface ReceivedMail {
  to: string[];
  raw: string;
}

/** The text of a received mail, its transfer encoding undone. */
function mailBody(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

test.describe('email code', () => {
  const mails: ReceivedMail[] = [];
  const env: Record<string, string> = {};
  let smtp: SMTPServer | undefined;

  // Registered before useServer's own hook, so the server starts with the listener's address.
  test.beforeAll(async () => {
    smtp = new SMTPServer({
      hideSTARTTLS: true,
      authOptional: true,
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp!.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as net.AddressInfo;
    env.BOGWAN_SMTP_URL = `smtp://127.0.0.1:${port}`;
    env.BOGWAN_MAIL_FROM = 'bogwan@example.com';
  });
  test.afterAll(async () => {
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  });

  const server = useServer({ env });
  test.beforeAll(async () => {
    await server().createMaster();
  });

  test('turned on in Security; the code from the mail finishes the sign-in', async ({ page }) => {
    await submitPassword(page, server());
    await expectHome(page);
    const settings = await openSecurity(page);
    await chooseSecondFactor(page, settings, 'mfa_email');
    await signOut(page);

    const before = mails.length;
    await submitPassword(page, server());
    await expect(page.getByText(ko('otp_code_sent_message'))).toBeVisible();
    await expect(page.getByText(MASTER.email)).toBeVisible();
    await expect.poll(() => mails.length, { timeout: 15_000 }).toBeGreaterThan(before);
    const mail = mails.at(-1)!;
    expect(mail.to).toEqual([MASTER.email]);
    const code = /(?<!\d)(\d{6})(?!\d)/.exec(mailBody(mail.raw))?.[1];
    expect(code).toBeDefined();

    // A wrong code first: refused, the field is ready again.
    const field = page.getByLabel(ko('otp_code'), { exact: true });
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await field.fill(wrong);
    await expect(page.getByText(ko('login_failure_otp'))).toBeVisible();
    await field.fill(code!);
    await expectHome(page);
  });
});

/** A Chromium virtual authenticator for this page (WebAuthn through the DevTools protocol). */
async function addVirtualAuthenticator(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'usb', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return cdp;
}

async function chooseFingerprint(page: Page, server: RunningServer, prefix = ''): Promise<void> {
  const t = prefix === '/en' ? en : ko;
  await page.goto(`${server.url}${prefix}/auth/login`);
  await page.getByRole('button', { name: t('login_method_fingerprint'), exact: true }).click();
  await page.getByLabel(t('email'), { exact: true }).fill(MASTER.email);
}

test.describe('fingerprint registered in Security', () => {
  const server = useServer();
  test.beforeAll(async () => {
    await server().createMaster();
  });

  test('registers with the virtual authenticator, then signs in with it', async ({ page }) => {
    await addVirtualAuthenticator(page);
    await submitPassword(page, server());
    await expectHome(page);
    const settings = await openSecurity(page);
    await expect(settings.getByTestId('fingerprint-count')).toHaveText(ko('security_fingerprint_count').replace('{{n}}', '0'));
    await settings.getByRole('button', { name: ko('security_fingerprint_register'), exact: true }).click();
    await confirmPassword(page);
    await expect(page.getByText(ko('register_fingerprint_complete_message'))).toBeVisible();
    await expect(settings.getByTestId('fingerprint-count')).toHaveText(ko('security_fingerprint_count').replace('{{n}}', '1'));
    await signOut(page);

    await chooseFingerprint(page, server());
    await page.getByRole('button', { name: ko('fingerprint_login'), exact: true }).click();
    await expectHome(page);
  });
});

test.describe('first fingerprint sign-in', () => {
  const server = useServer();
  test.beforeAll(async () => {
    await server().createMaster();
  });

  test('an account without a fingerprint registers one with its password, in English', async ({ page }) => {
    await addVirtualAuthenticator(page);
    await chooseFingerprint(page, server(), '/en');
    await page.getByRole('button', { name: en('fingerprint_login'), exact: true }).click();
    await expect(page.getByText(en('fingerprint_first_use_message'))).toBeVisible();
    await page.getByLabel(en('password'), { exact: true }).fill('Wrong!pass99');
    await page.getByRole('button', { name: en('fingerprint_register_and_login'), exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: en('login_failure') })).toBeVisible();

    await page.getByLabel(en('password'), { exact: true }).fill(MASTER.password);
    await page.getByRole('button', { name: en('fingerprint_register_and_login'), exact: true }).click();
    await expect(page).toHaveURL(/\/en\/?$/);
    await expect(page.getByTestId('nav-drawer')).toBeVisible();

    // Next time the registered fingerprint alone is enough.
    await page.getByRole('button', { name: en('user_menu') }).click();
    await page.getByRole('menuitem', { name: en('logout') }).click();
    await expect(page).toHaveURL(/\/en\/auth\/login$/);
    await chooseFingerprint(page, server(), '/en');
    await page.getByRole('button', { name: en('fingerprint_login'), exact: true }).click();
    await expect(page).toHaveURL(/\/en\/?$/);
  });
});

test.describe('session', () => {
  // Access tokens live 35 s here, so the 30 s refresh margin is reached after 5 s.
  const server = useServer({ env: { BOGWAN_ACCESS_TOKEN_TTL: '35' } });
  test.beforeAll(async () => {
    await server().createMaster();
  });

  test('a token about to expire is refreshed before the call; a refused refresh leads to sign-in', async ({ page }) => {
    test.setTimeout(60_000);
    await submitPassword(page, server());
    await expectHome(page);
    const firstToken = await page.evaluate(() => JSON.parse(localStorage.getItem('auth') ?? 'null')?.token);
    await page.waitForTimeout(6_000);

    const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/auth/refresh'));
    await page.reload();
    expect((await refreshed).status()).toBe(200);
    await expectHome(page);
    const secondToken = await page.evaluate(() => JSON.parse(localStorage.getItem('auth') ?? 'null')?.token);
    expect(secondToken).toBeTruthy();
    expect(secondToken).not.toBe(firstToken);

    // Without the refresh cookie the next refresh is refused: user and token are cleared.
    await page.context().clearCookies();
    await page.waitForTimeout(6_000);
    await page.reload();
    await expect(page).toHaveURL(/\/auth\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('auth'))).toBeNull();
  });
});
