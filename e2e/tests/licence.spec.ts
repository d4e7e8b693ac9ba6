import crypto from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MASTER, expect, test, useServer } from '../fixtures.js';
import { text } from '../i18n.js';

// This run's vendor key pair: the server trusts its public half, the test signs with the private one.
const vendor = crypto.generateKeyPairSync('ed25519');
const server = useServer({ env: { BOGWAN_LICENSE_PUBLIC_KEY: vendor.publicKey.export({ type: 'spki', format: 'pem' }).toString() } });
const ko = (key: string) => text('ko', key);

/** A licence key as the vendor tool issues it. */
function issueKey(serverId: string): string {
  const payload = Buffer.from(
    JSON.stringify({
      org: '보관 테스트 기관',
      sen: 'SEN-E2E-1',
      serverId,
      type: 'STANDARD',
      user: 50,
      purchase: '2026-01-05',
      maintenance: '2099-12-31',
      iat: Math.floor(Date.now() / 1000),
    }),
  );
  const signature = crypto.sign(null, payload, vendor.privateKey);
  return `BOGWAN1.${payload.toString('base64url')}.${signature.toString('base64url')}`;
}

async function licenceCheck(): Promise<{ isVerifyLicenseRequired: boolean; serverId: string }> {
  return (await fetch(`${server().url}/api/system/license/check`)).json();
}

/** Ends the trial the way time would: its start moves 31 days back in the database. */
async function expireTrial(): Promise<void> {
  const db = new Database(path.join(server().dataDir, 'bogwan.sqlite'));
  try {
    const started = new Date(Date.now() - 31 * 86_400_000).toISOString();
    db.prepare("UPDATE settings SET value = ? WHERE key = 'licence.trial_started'").run(JSON.stringify(started));
  } finally {
    db.close();
  }
  // The server re-reads the licence within a few seconds.
  await expect.poll(async () => (await licenceCheck()).isVerifyLicenseRequired, { timeout: 15_000 }).toBe(true);
}

test('after the trial the licence dialog blocks the app until a valid key is saved', async ({ page }) => {
  test.setTimeout(90_000);
  await server().createMaster();
  expect(await licenceCheck()).toMatchObject({ isVerifyLicenseRequired: false });
  await expireTrial();
  const { serverId } = await licenceCheck();

  // On the sign-in page the poll's 403 opens the dialog; closing it leaves the form usable.
  await page.goto(`${server().url}/auth/login`);
  const dialog = page.getByRole('dialog', { name: ko('license_dialog_title') });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(ko('invalid_license_message1'))).toBeVisible();
  await expect(dialog.getByText(ko('invalid_license_message2'))).toBeVisible();
  await expect(dialog.getByText(serverId)).toBeVisible();
  await dialog.getByRole('button', { name: ko('close') }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/auth\/login$/);

  // Signing in works while the licence is needed; the first call that needs it opens the dialog.
  await page.getByLabel(ko('email'), { exact: true }).fill(MASTER.email);
  await page.getByLabel(ko('password'), { exact: true }).fill(MASTER.password);
  await page.locator('button[type=submit]').click();
  await expect(dialog).toBeVisible();

  const keyField = dialog.getByLabel(ko('license_key'));
  const save = dialog.getByRole('button', { name: ko('save') });
  await expect(keyField).toHaveAttribute('rows', '4');
  await expect(save).toBeDisabled();

  await keyField.fill('BOGWAN1.not-a-key.at-all');
  await expect(save).toBeEnabled();
  await save.click();
  await expect(dialog.getByText(ko('invalid_license'))).toBeVisible();
  expect((await licenceCheck()).isVerifyLicenseRequired).toBe(true);

  await keyField.fill(issueKey(serverId));
  await save.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(ko('license_update_complete_message'))).toBeVisible();
  expect((await licenceCheck()).isVerifyLicenseRequired).toBe(false);
  await expect(page.getByTestId('nav-drawer')).toBeVisible();

  // Settings → System → Licence shows what the key says.
  await page
    .getByRole('button', { name: ko('settings'), exact: true })
    .first()
    .click();
  const settings = page.getByRole('dialog', { name: ko('settings') });
  await settings.getByText(ko('settings_license'), { exact: true }).click();
  await expect(settings.getByText('보관 테스트 기관')).toBeVisible();
  await expect(settings.getByText('SEN-E2E-1')).toBeVisible();
  await expect(settings.getByText(serverId)).toBeVisible();
  await expect(settings.getByText('2099-12-31')).toBeVisible();
  await expect(settings.getByText(ko('license_maintenance_expiry'))).toBeVisible();
});
