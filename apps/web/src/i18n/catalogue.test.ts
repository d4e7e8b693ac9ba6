import { MESSAGE_KEYS, NOTIFICATION_KEYS } from '@bogwan/contracts';
import { CATALOGUE_PARTS, PART_FILES, cataloguePartsOf, keysIn, partOfFile, type CataloguePart } from './catalogue-parts';
import { serverTextKeys } from './server-text-keys';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * Keys count as used when they appear in the web sources as t('key'), k('key') or
 * i18nKey="key" (see keysIn in catalogue-parts.ts), plus every server message key in
 * MESSAGE_KEYS. Keys are snake_case.
 */

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

  const sources = new Map(sourceFiles(srcDir).map((file) => [relative(srcDir, file).replace(/\\/g, '/'), readFileSync(file, 'utf8')]));
  const parts = cataloguePartsOf(Object.keys(ko), sources);

  it('serves a key outside the common part only to the files of that part', () => {
    const stray: string[] = [];
    for (const [where, text] of sources) {
      for (const key of keysIn(text)) {
        const part = parts.get(key) ?? parts.get(`${key}_other`) ?? 'common';
        if (part !== 'common' && partOfFile(where) !== part) stray.push(`${key} (${part}) in ${where}`);
      }
    }
    for (const key of [...MESSAGE_KEYS, ...NOTIFICATION_KEYS])
      if ((parts.get(key) ?? 'common') !== 'common') stray.push(`${key}: a server text shown anywhere`);
    expect(stray).toEqual([]);
    for (const part of CATALOGUE_PARTS) expect([...parts.values()].filter((p) => p === part).length).toBeGreaterThan(0);
    // policy_* texts are the policy section's alone.
    expect([...parts].filter(([key, part]) => key.startsWith('policy_') !== (part === 'policy'))).toEqual([]);
  });

  it('reaches a file of a part only through files that wait for that part', () => {
    const waitsFor = (text: string, part: CataloguePart) =>
      [...text.matchAll(/useCataloguePart\(([^)]*)\)|<CatalogueParts parts=\{\[([^\]]*)\]\}/g)].some((call) =>
        new RegExp(`['"]${part}['"]`).test(call[1] ?? call[2] ?? ''),
      );
    const importsOf = (file: string, text: string) =>
      [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.[^'"]+)['"]/g)].flatMap((match) => {
        const base = resolve(srcDir, dirname(file), match[1] ?? '');
        const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find(
          (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
        );
        return found ? [relative(srcDir, found).replace(/\\/g, '/')] : [];
      });
    const unguarded: string[] = [];
    for (const [importer, text] of sources) {
      for (const file of importsOf(importer, text)) {
        const part = partOfFile(file);
        if (part === 'common' || partOfFile(importer) === part) continue;
        if (waitsFor(sources.get(file) ?? '', part) || waitsFor(text, part)) continue;
        unguarded.push(`${file} (${part}) imported by ${importer}`);
      }
    }
    expect(unguarded).toEqual([]);
    // Every part has a file that waits for it.
    for (const part of CATALOGUE_PARTS) expect([...sources.values()].some((text) => waitsFor(text, part))).toBe(true);
    expect(PART_FILES.policy.length).toBeGreaterThan(0);
  });
});
