import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from '@playwright/test';
import { expect, MASTER, test, useServer, type RunningServer } from '../fixtures.js';
import { text } from '../i18n.js';

// axe-core on every route, the settings sections and the main dialogs, in Korean and
// English, at 1440 and 390 px. The run prints what axe found per page and fails on any
// critical or serious violation (WCAG 2.2 AA and axe's best practices).

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const BLOCKING = new Set(['critical', 'serious']);
const ROOT = '접근성';
const FILE = '회의록.txt';

type Locale = 'ko' | 'en';
interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

const server = useServer();
let shareKey = '';

test.use({ reducedMotion: 'reduce' });

async function api(running: RunningServer, token: string, method: string, urlPath: string, body?: unknown): Promise<any> {
  const res = await fetch(`${running.url}${urlPath}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${urlPath} failed: ${res.status} ${await res.text()}`);
  return res.json();
}

test.beforeAll(async () => {
  const running = server();
  await running.createMaster();
  const login = await fetch(`${running.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: MASTER.email, password: MASTER.password }),
  });
  const token = ((await login.json()) as { token: string }).token;
  await api(running, token, 'POST', '/api/file', { name: ROOT, path: '/' });
  await api(running, token, 'POST', '/api/file', { name: '보고서', path: `/${ROOT}` });
  const form = new FormData();
  const bytes = Buffer.from('주간 회의록');
  const fields = { fileName: FILE, path: `/${ROOT}`, userId: 'x', chunkIndex: '0', totalChunks: '1', isLastChunk: 'true', fileSize: String(bytes.length) };
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([bytes]), 'blob');
  const upload = await fetch(`${running.url}/api/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(upload.status).toBe(200);
  const share = (await api(running, token, 'POST', '/api/share', { path: `/${ROOT}`, scope: 'anyone' })) as { key: string };
  shareKey = share.key;
});

/** Runs axe on the page as it is now; prints the counts and returns the blocking findings. */
async function audit(page: Page, label: string): Promise<string[]> {
  // Look once the page has shown what it was loading.
  await expect(page.locator('.MuiCircularProgress-root, .MuiSkeleton-root'))
    .toHaveCount(0, { timeout: 3_000 })
    .catch(() => undefined);
  // And once menus, dialogs and buttons have finished fading in (a half-faded label is not what users read).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  // Evaluated rather than added as a script tag, which the app's CSP rightly refuses.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: unknown[] }> } }).axe.run(document, {
      resultTypes: ['violations'],
    });
    return result.violations;
  })) as Violation[];
  const counts: Record<string, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const violation of violations) counts[violation.impact ?? 'minor'] += violation.nodes.length;
  console.log(`axe ${label}: critical ${counts.critical}, serious ${counts.serious}, moderate ${counts.moderate}, minor ${counts.minor}`);
  for (const violation of violations)
    console.log(
      `  ${violation.impact} ${violation.id}: ${violation.nodes
        .map((node) => node.target.join(' '))
        .slice(0, 3)
        .join(' | ')}`,
    );
  return violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ''))
    .map(
      (violation) =>
        `${label}: [${violation.impact}] ${violation.id} (${violation.help}) at ${violation.nodes
          .map((node) => node.target.join(' '))
          .slice(0, 4)
          .join(' | ')}`,
    );
}

async function signInAs(page: Page, locale: Locale): Promise<void> {
  const prefix = locale === 'en' ? '/en' : '';
  await page.goto(`${server().url}${prefix}/auth/login`);
  await page.getByLabel(text(locale, 'email'), { exact: true }).fill(MASTER.email);
  await page.getByLabel(text(locale, 'password'), { exact: true }).fill(MASTER.password);
  await page.locator('button[type=submit]').click();
  await expect(page).not.toHaveURL(/\/auth\/login/);
}

const row = (page: Page, name: string) => page.locator(`[role=row][data-entry-name="${name}"]`);

async function auditDialog(page: Page, dialog: Locator, label: string, findings: string[]): Promise<void> {
  await expect(dialog).toBeVisible();
  findings.push(...(await audit(page, label)));
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

for (const locale of ['ko', 'en'] as const) {
  for (const width of [1440, 390]) {
    test(`axe finds nothing critical or serious (${locale}, ${width} px)`, async ({ page }) => {
      test.setTimeout(600_000);
      const t = (key: string) => text(locale, key);
      const prefix = locale === 'en' ? '/en' : '';
      const url = (path: string) => `${server().url}${prefix}${path}`;
      const tag = `${locale} ${width}`;
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      const findings: string[] = [];

      // Signed out: sign-in page, the share visitor page, the 404 page.
      for (const path of ['/auth/login', `/share/${shareKey}`]) {
        await page.goto(url(path));
        await expect(page.locator('main, [role=main], form').first()).toBeVisible();
        findings.push(...(await audit(page, `${tag} ${path.startsWith('/share') ? '/share/:key' : path}`)));
      }

      await signInAs(page, locale);
      const routes = [
        '/',
        '/home',
        '/recent',
        '/starred',
        '/shared',
        '/requests',
        '/storage',
        `/storage/${encodeURIComponent(ROOT)}`,
        `/search?q=${encodeURIComponent('회의록')}`,
        '/dashboard',
        '/event',
        '/log',
        '/snapshot',
        '/restore',
        '/trash',
        `/user/${encodeURIComponent(MASTER.email)}`,
        '/guide',
        '/manual',
        '/no/such/page',
      ];
      for (const path of routes) {
        await page.goto(url(path));
        await expect(page.locator('#root')).not.toBeEmpty();
        findings.push(...(await audit(page, `${tag} ${decodeURIComponent(path)}`)));
      }

      // The main dialogs of the storage browser: new folder, move, share, the upload queue.
      await page.goto(url(`/storage/${encodeURIComponent(ROOT)}`));
      await expect(row(page, FILE)).toBeVisible();
      await page
        .getByRole('button', { name: t('create_folder') })
        .first()
        .click();
      await auditDialog(page, page.getByRole('dialog'), `${tag} new folder dialog`, findings);

      await row(page, FILE).click({ button: 'right' });
      // The menu's code loads on its first opening: audit it once it is there and fully drawn.
      const itemMenu = page.getByRole('menu', { name: t('item_actions') });
      await expect(itemMenu).toBeVisible();
      await expect(itemMenu.locator('xpath=..')).toHaveCSS('opacity', '1');
      findings.push(...(await audit(page, `${tag} item menu`)));
      await page.getByRole('menuitem', { name: t('move'), exact: true }).click();
      await auditDialog(page, page.getByRole('dialog', { name: t('move_to') }), `${tag} move dialog`, findings);

      await row(page, FILE).click({ button: 'right' });
      await page.getByRole('menuitem', { name: t('share_create_title'), exact: true }).click();
      await auditDialog(page, page.getByRole('dialog', { name: t('share_create_title') }), `${tag} share dialog`, findings);

      await page.getByTestId('upload-input').setInputFiles({ name: `queue-${locale}-${width}.txt`, mimeType: 'text/plain', buffer: Buffer.from('queued') });
      const panel = page.getByTestId('task-panel');
      await expect(panel).toBeVisible();
      await expect(row(page, `queue-${locale}-${width}.txt`)).toBeVisible();
      findings.push(...(await audit(page, `${tag} upload queue`)));
      await panel.getByRole('button', { name: t('close') }).click();

      // Every section of the settings dialog.
      await page.getByRole('button', { name: t('user_menu') }).click();
      await page.getByRole('menuitem', { name: t('settings'), exact: true }).click();
      const settings = page.getByRole('dialog', { name: t('settings') });
      await expect(settings).toBeVisible();
      const tree = settings.getByRole('navigation', { name: t('settings_sections') });
      const sectionNames = await tree.getByRole('button').allTextContents();
      expect(sectionNames.length).toBeGreaterThan(10);
      for (const name of sectionNames) {
        if (!(await tree.isVisible())) await settings.getByRole('button', { name: t('settings_sections') }).click();
        await tree.getByRole('button', { name, exact: true }).click();
        await expect(settings.locator('#settings-section-title')).toHaveText(name);
        findings.push(...(await audit(page, `${tag} settings: ${name}`)));
      }

      expect(findings, findings.join('\n')).toEqual([]);
    });
  }
}
