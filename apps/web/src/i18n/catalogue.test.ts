import { MESSAGE_KEYS, NOTIFICATION_KEYS } from '@bogwan/contracts';
import { CATALOGUE_PARTS, PART_FILES, partOf } from './catalogue-parts';
import { serverTextKeys } from './server-text-keys';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * Keys count as used when they appear in the web sources as
 *   t('key') or t("key")            (also i18n.t('key'))
 *   k('key')                        (keys kept in maps and lists, see keys.ts)
 *   i18nKey="key" or i18nKey={'key'}
 * plus every server message key in MESSAGE_KEYS. Keys are snake_case.
 */
const USE_PATTERNS = [/\bt\(\s*['"]([a-z0-9_]+)['"]/g, /\bk\(\s*['"]([a-z0-9_]+)['"]/g, /\bi18nKey=\{?\s*['"]([a-z0-9_]+)['"]/g];

// A key used with a count lives in the catalogues as its plural forms (`x_one`, `x_other`).
const PLURAL_FORMS = ['_one', '_other'] as const;
const inCatalogue = (key: string, messages: Record<string, unknown>) => key in messages || PLURAL_FORMS.every((form) => `${key}${form}` in messages);
const baseOf = (key: string) => key.replace(/_(one|other)$/, '');

const here = dirname(fileURLToPath(import.meta.url));
const srcDir = join(here, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Keys used in one source text. */
export function keysIn(source: string): string[] {
  return USE_PATTERNS.flatMap((pattern) => Array.from(source.matchAll(pattern), (match) => match[1] as string));
}

function usedKeys(): Map<string, string> {
  const used = new Map<string, string>();
  for (const key of MESSAGE_KEYS) used.set(key, '@bogwan/contracts MESSAGE_KEYS');
  const catalogueKeys = Object.keys(JSON.parse(readFileSync(join(here, 'ko.json'), 'utf8')) as object);
  for (const [key, where] of serverTextKeys(catalogueKeys)) used.set(key, where);
  for (const file of sourceFiles(srcDir)) {
    for (const key of keysIn(readFileSync(file, 'utf8'))) {
      if (!used.has(key)) used.set(key, relative(srcDir, file));
    }
  }
  return used;
}

function catalogue(locale: 'ko' | 'en'): Record<string, unknown> {
  return JSON.parse(readFileSync(join(here, `${locale}.json`), 'utf8')) as Record<string, unknown>;
}

describe('i18n catalogues', () => {
  const used = usedKeys();
  const ko = catalogue('ko');
  const en = catalogue('en');

  it('finds the keys the code uses', () => {
    expect(keysIn(`t('a_key'); i18n.t("b_key"); k('c_key'); <Trans i18nKey="d_key" />`)).toEqual(['a_key', 'b_key', 'c_key', 'd_key']);
    expect(used.size).toBeGreaterThan(MESSAGE_KEYS.length);
  });

  it.each([
    ['ko', ko],
    ['en', en],
  ] as const)('%s.json has every used key', (_locale, messages) => {
    const missing = [...used].filter(([key]) => !inCatalogue(key, messages)).map(([key, where]) => `${key} (${where})`);
    expect(missing).toEqual([]);
  });

  it('has no key that nothing uses', () => {
    const unused = [...new Set([...Object.keys(ko), ...Object.keys(en)])].filter((key) => !used.has(key) && !used.has(baseOf(key)));
    expect(unused).toEqual([]);
  });

  it('ko.json and en.json hold the same keys', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(ko).sort());
  });

  it.each([
    ['ko', ko],
    ['en', en],
  ] as const)('%s.json has a non-empty text for every key', (_locale, messages) => {
    const empty = Object.entries(messages).filter(([, text]) => typeof text !== 'string' || text.trim() === '');
    expect(empty).toEqual([]);
  });

  it('ko.json is written in Korean', () => {
    const notKorean = Object.entries(ko)
      // note_legacy passes an old message through as it was written.
      .filter(([key]) => key !== 'rules_folder' && key !== 'note_legacy')
      .filter(([, text]) => typeof text === 'string' && !/[\uAC00-\uD7A3]/.test(text));
    expect(notKorean).toEqual([]);
  });

  it('serves a key outside the common part only to the files that wait for that part', () => {
    // Every file a key is used in, by file (the used-key map above keeps only the first).
    const stray: string[] = [];
    for (const file of sourceFiles(srcDir)) {
      const where = relative(srcDir, file).replace(/\\/g, '/');
      for (const key of keysIn(readFileSync(file, 'utf8'))) {
        const part = partOf(key);
        if (part !== 'common' && !PART_FILES[part].includes(where)) stray.push(`${key} (${part}) in ${where}`);
      }
    }
    for (const key of [...MESSAGE_KEYS, ...NOTIFICATION_KEYS]) if (partOf(key) !== 'common') stray.push(`${key}: a server text shown anywhere`);
    expect(stray).toEqual([]);
    for (const part of CATALOGUE_PARTS) expect(Object.keys(ko).filter((key) => partOf(key) === part).length).toBeGreaterThan(0);
  });
});
