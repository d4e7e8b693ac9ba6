import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { CATALOGUE_PARTS, partOf } from '../src/i18n/catalogue-parts.ts';

const PREFIX = 'virtual:catalogue/';
const LOCALES = ['ko', 'en'];

/**
 * Serves `virtual:catalogue/<locale>/<part>` (part `common` or one of CATALOGUE_PARTS): the
 * keys of `<locale>.json` that `partOf` puts in that part, as one `JSON.parse('…')` string
 * (the form the whole catalogue had). ko.json and en.json stay whole files.
 */
export function catalogueParts({ dir }: { dir: string }): Plugin {
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
      const picked = Object.fromEntries(Object.entries(messages).filter(([key]) => partOf(key) === part));
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(picked))});\n`;
    },
  };
}
