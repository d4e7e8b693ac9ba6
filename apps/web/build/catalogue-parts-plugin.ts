import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { CATALOGUE_PARTS, cataloguePartsOf } from '../src/i18n/catalogue-parts.ts';

const PREFIX = 'virtual:catalogue/';
const LOCALES = ['ko', 'en'];

/** The web sources (tests left out), by path under `srcDir` with `/` separators. */
export function readSources(srcDir: string): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        sources.set(path.relative(srcDir, file).split(path.sep).join('/'), fs.readFileSync(file, 'utf8'));
      }
    }
  };
  walk(srcDir);
  return sources;
}

/**
 * Serves `virtual:catalogue/<locale>/<part>` (part `common` or one of CATALOGUE_PARTS): the
 * keys of `<locale>.json` that `cataloguePartsOf` puts in that part (from where the sources
 * under `srcDir` use them), as one `JSON.parse('…')` string (the form the whole catalogue
 * had). ko.json and en.json stay whole files.
 */
export function catalogueParts({ dir, srcDir }: { dir: string; srcDir: string }): Plugin {
  return {
    name: 'bogwan-catalogue-parts',
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const [locale, part] = id.slice(PREFIX.length + 1).split('/');
      if (!locale || !LOCALES.includes(locale) || (part !== 'common' && !(CATALOGUE_PARTS as readonly string[]).includes(part ?? ''))) {
        this.error(`unknown catalogue part: ${id.slice(1)}`);
      }
      const file = path.join(dir, `${locale}.json`);
      this.addWatchFile(file);
      const messages = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
      const parts = cataloguePartsOf(Object.keys(messages), readSources(srcDir));
      const picked = Object.fromEntries(Object.entries(messages).filter(([key]) => parts.get(key) === part));
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(picked))});\n`;
    },
  };
}
