// Makes the user guide and the manual PDFs (ko, en) from their HTML sources in
// apps/web/guide/ with Debian's Chromium, into apps/web/public/guide/, where the web
// build serves them. The PDFs are committed: run this after changing a source.
//   node scripts/build-guide-pdfs.mjs
// Korean needs a Korean font on this machine (Debian: fonts-nanum or fonts-noto-cjk);
// the script refuses to write a Korean PDF without one.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../e2e/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sources = path.join(root, 'apps/web/guide');
const target = path.join(root, 'apps/web/public/guide');
const DOCUMENTS = ['guide', 'manual'];
const LOCALES = ['ko', 'en'];
const TITLES = { guide: { ko: '사용자 가이드', en: 'User guide' }, manual: { ko: '매뉴얼', en: 'Manual' } };

function hasKoreanFont() {
  try {
    return execFileSync('fc-list', [':lang=ko', 'family'], { encoding: 'utf8' }).trim().length > 0;
  } catch {
    return false;
  }
}

const executablePath = findChromium();
if (!executablePath) throw new Error('No Chromium: install it with `apt-get install chromium` or set CHROMIUM_PATH.');
if (!hasKoreanFont()) throw new Error('No Korean font: install one (`apt-get install fonts-nanum`) so the Korean PDFs are readable.');

fs.mkdirSync(target, { recursive: true });
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  for (const document of DOCUMENTS) {
    for (const locale of LOCALES) {
      const source = path.join(sources, `${document}.${locale}.html`);
      await page.goto(pathToFileURL(source).href, { waitUntil: 'load' });
      await page.evaluate(() => document.fonts.ready);
      const footer = `<div style="width:100%;font-size:8px;color:#7b8794;padding:0 18mm;display:flex;justify-content:space-between;font-family:sans-serif">
        <span>Bogwan · ${TITLES[document][locale]}</span><span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>`;
      const out = path.join(target, `${document}-${locale}.pdf`);
      await page.pdf({
        path: out,
        format: 'A4',
        printBackground: true,
        preferCSSPageSize: true,
        displayHeaderFooter: true,
        headerTemplate: '<span></span>',
        footerTemplate: footer,
        tagged: true,
        outline: true,
      });
      console.log(`${path.relative(root, out)}: ${fs.statSync(out).size} bytes`);
    }
  }
} finally {
  await browser.close();
}
