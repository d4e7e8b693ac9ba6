import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, MASTER, signIn, test, useServer, type RunningServer } from '../fixtures.js';
import { text } from '../i18n.js';

const ROOT = 'E2E 문서';
const SAMPLES = path.resolve(import.meta.dirname, '../../test-fixtures/hwp');

test.use({ reducedMotion: 'reduce', viewport: { width: 390, height: 844 }, hasTouch: true });
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const server = useServer();

async function createRoot(running: RunningServer): Promise<void> {
  const login = await fetch(`${running.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: MASTER.email, password: MASTER.password }),
  });
  const { token } = (await login.json()) as { token: string };
  const res = await fetch(`${running.url}/api/file`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: ROOT, path: '/' }),
  });
  expect(res.ok).toBe(true);
}

/** The width (px) `sample` takes in the font of the element around the first `sample` in `scroll`, and a tofu box's. */
async function glyphWidths(scroll: Locator, sample: string): Promise<{ glyph: number; tofu: number; font: string }> {
  return scroll.evaluate(async (root, sample) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let node = walker.nextNode();
    while (node && !node.textContent?.includes(sample)) node = walker.nextNode();
    if (!node?.parentElement) throw new Error(`no text with ${sample}`);
    const style = getComputedStyle(node.parentElement);
    const font = `${style.fontSize} ${style.fontFamily}`;
    await document.fonts.load(font, sample);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = font;
    // U+E83A (private use) is in no font on the machine: it is drawn as the fallback box.
    return { glyph: context.measureText(sample).width, tofu: context.measureText('\uE83A').width, font };
  }, sample);
}

/** Signs in, uploads one sample and opens its preview; returns the viewer's scroll area. */
async function openSample(page: Page, name: string): Promise<Locator> {
  const running = server();
  await signIn(page, running);
  await page.goto(`${running.url}/storage/${encodeURIComponent(ROOT)}`);
  await page.getByTestId('upload-input').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: fs.readFileSync(path.join(SAMPLES, name)) });
  const row = page.locator(`[role=row][data-entry-name="${name}"]`);
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.dblclick();
  const scroll = page.getByTestId('preview-overlay').getByTestId('hwp-scroll');
  await expect(scroll.locator('[data-page-number]').first()).toBeVisible({ timeout: 20_000 });
  return scroll;
}

const counterText = (current: number, total: number) =>
  text('ko', 'preview_page_counter').replace('{{current}}', String(current)).replace('{{total}}', String(total));

test.beforeAll(async () => {
  await server().createMaster();
  await createRoot(server());
});

test('an HWP document on a phone: the pages fit the width and ｢누리｣ is drawn with real glyphs', async ({ page }) => {
  const scroll = await openSample(page, 'noori.hwp');
  await expect(scroll.getByText('한국형발사체').first()).toBeVisible();

  // The pages are zoomed to the window: nothing scrolls sideways, a page is as wide as the screen allows.
  const fit = await scroll.evaluate((element) => {
    const pages = Array.from(element.querySelectorAll(':scope > [data-page-number]'));
    return {
      scrollWidth: element.scrollWidth,
      clientWidth: element.clientWidth,
      widest: Math.max(...pages.map((p) => p.getBoundingClientRect().width)),
      rightmost: Math.max(...pages.map((p) => p.getBoundingClientRect().right)),
    };
  });
  expect(fit.scrollWidth).toBeLessThanOrEqual(fit.clientWidth);
  expect(fit.rightmost).toBeLessThanOrEqual(390);
  // Scaled, not cropped: a page still uses most of the width (an A4 page is 794 px at full size).
  expect(fit.widest).toBeGreaterThan(300);
  const outer = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(outer.scrollWidth).toBeLessThanOrEqual(outer.clientWidth);
  await page.screenshot({ path: test.info().outputPath('hwp-ko-390-top.png') });

  // ｢누리｣ (halfwidth corner brackets, U+FF62/FF63) and the Hangul around them are real glyphs, not boxes.
  for (const sample of ['｢', '｣', '누']) {
    const widths = await glyphWidths(scroll, sample);
    expect(widths.glyph, `${sample} in ${widths.font}`).not.toBeCloseTo(widths.tofu, 1);
  }
  // The measure tells a box from a glyph: in a font stack without the glyph, ｢ is the box.
  const control = await page.evaluate(async () => {
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = '16px "DejaVu Sans"';
    return { glyph: context.measureText('｢').width, tofu: context.measureText('\uE83A').width };
  });
  expect(control.glyph).toBeCloseTo(control.tofu, 1);
  // The fullwidth brackets 「 」 『 』 come from the same font stack.
  const { font } = await glyphWidths(scroll, '누');
  const full = await page.evaluate(async (font) => {
    await document.fonts.load(font, '「」『』');
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = font;
    return { samples: ['「', '」', '『', '』'].map((c) => context.measureText(c).width), tofu: context.measureText('\uE83A').width };
  }, font);
  for (const width of full.samples) expect(width).not.toBeCloseTo(full.tofu, 1);

  await scroll.getByText('｢누리｣').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('hwp-ko-390-nuri.png') });
});

test("the page counter shows the document's page count and follows the scroll", async ({ page }) => {
  const scroll = await openSample(page, 'basicsReport.hwp');
  // Hangul wrote 6 as the page count in the file's summary information (PIDSI_PAGECOUNT).
  const total = 6;
  await expect(scroll.locator(':scope > [data-page-number]')).toHaveCount(total);
  const counter = page.getByTestId('hwp-page-counter');
  await expect(counter).toHaveText(counterText(1, total));

  // The middle of page 3 in the middle of the view, then the end of the document.
  await scroll.evaluate((element) => {
    const third = element.querySelector<HTMLElement>(':scope > [data-page-number="2"]')!;
    const rect = third.getBoundingClientRect();
    element.scrollTop += rect.top - element.getBoundingClientRect().top + rect.height / 2 - element.clientHeight / 2;
  });
  await expect(counter).toHaveText(counterText(3, total));
  await page.screenshot({ path: test.info().outputPath('hwp-ko-390-page3.png') });
  await scroll.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
  await expect(counter).toHaveText(counterText(total, total));
  await scroll.evaluate((element) => element.scrollTo({ top: 0 }));
  await expect(counter).toHaveText(counterText(1, total));
});

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1440, height: 900 }, hasTouch: false });

  test('pages keep their printed size and the counter is in English on /en', async ({ page }) => {
    const running = server();
    await signIn(page, running, '/en');
    await page.goto(`${running.url}/en/storage/${encodeURIComponent(ROOT)}`);
    await page.locator('[role=row][data-entry-name="noori.hwp"]').dblclick();
    const scroll = page.getByTestId('preview-overlay').getByTestId('hwp-scroll');
    const first = scroll.locator(':scope > [data-page-number="0"]');
    await expect(first).toBeVisible({ timeout: 20_000 });
    // An A4 page (8.27 in) is 794 px at 96 dpi; at 1440 px nothing is scaled down.
    expect((await first.boundingBox())!.width).toBeGreaterThan(790);
    await expect(page.getByTestId('hwp-page-counter')).toHaveText(text('en', 'preview_page_counter').replace('{{current}}', '1').replace('{{total}}', '3'));
    await page.screenshot({ path: test.info().outputPath('hwp-en-1440.png') });
  });
});
