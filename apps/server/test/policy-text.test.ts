import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls } from '@bogwan/contracts';
import { call, setupMaster, startServer, type TestServer } from './harness.js';

// Every declared route policy has a description in the reader's language: a
// `policy_desc_<name>` key in ko.json (Korean) and en.json, and no such key outlives its policy.

const i18nDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src/i18n');
const catalogue = (locale: 'ko' | 'en') => JSON.parse(fs.readFileSync(path.join(i18nDir, `${locale}.json`), 'utf8')) as Record<string, string>;

describe('policy descriptions in both languages', () => {
  let server: TestServer;
  let names: Set<string>;
  let categories: Set<string>;
  beforeAll(async () => {
    server = await startServer('sqlite');
    const master = await setupMaster(server);
    const res = await call(server, apiCalls.policy, { token: master.token });
    expect(res.status).toBe(200);
    names = new Set(res.body.map((p) => p.name));
    categories = new Set(res.body.map((p) => p.category));
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(['ko', 'en'] as const)('%s.json describes every declared policy', (locale) => {
    const texts = catalogue(locale);
    const missing = [...names].filter((name) => !texts[`policy_desc_${name}`]?.trim());
    expect(missing).toEqual([]);
  });

  it('the Korean descriptions are Korean and differ from the English ones', () => {
    const ko = catalogue('ko');
    const en = catalogue('en');
    const notKorean = [...names].filter((name) => !/[\uAC00-\uD7A3]/.test(ko[`policy_desc_${name}`] ?? ''));
    expect(notKorean).toEqual([]);
    expect([...names].filter((name) => ko[`policy_desc_${name}`] === en[`policy_desc_${name}`])).toEqual([]);
  });

  it('no description is left for a policy that no route declares', () => {
    const stale = Object.keys(catalogue('ko')).filter((key) => key.startsWith('policy_desc_') && !names.has(key.slice('policy_desc_'.length)));
    expect(stale).toEqual([]);
  });

  it.each(['ko', 'en'] as const)('%s.json names every policy category, and no category that no route declares', (locale) => {
    const texts = catalogue(locale);
    expect([...categories].filter((category) => !texts[`policy_cat_${category}`]?.trim())).toEqual([]);
    expect(Object.keys(texts).filter((key) => key.startsWith('policy_cat_') && !categories.has(key.slice('policy_cat_'.length)))).toEqual([]);
  });

  it('the Korean category names are Korean', () => {
    const ko = catalogue('ko');
    expect([...categories].filter((category) => !/[\uAC00-\uD7A3]/.test(ko[`policy_cat_${category}`] ?? ''))).toEqual([]);
  });
});
