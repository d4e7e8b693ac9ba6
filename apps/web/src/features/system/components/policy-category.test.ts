import type { Policy } from '@bogwan/contracts';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../../../i18n/en.json';
import ko from '../../../i18n/ko.json';
import { policyCategory, policyMatches } from './policy-section';

const policy: Policy = { category: 'snapshot', name: 'snapshot_plans', description: 'Snapshot plans', uri: '/api/snapshot', method: 'GET', level: 2 } as Policy;

async function translator(locale: 'ko' | 'en') {
  const instance = i18next.createInstance();
  await instance.init({ lng: locale, resources: { [locale]: { translation: locale === 'ko' ? ko : en } }, interpolation: { escapeValue: false } });
  return instance.t;
}

describe('policy categories', () => {
  it('read in the reader\u2019s language, never as the raw id', async () => {
    expect(policyCategory(await translator('ko'), policy)).toBe('스냅샷');
    expect(policyCategory(await translator('en'), policy)).toBe('Snapshots');
    // A category this build has no text for yet shows as the server names it.
    expect(policyCategory(await translator('ko'), { category: 'brand_new' })).toBe('brand_new');
  });

  it('are found by the name the reader sees', async () => {
    const t = await translator('ko');
    expect(policyMatches(policy, '스냅샷', policy.description, policyCategory(t, policy))).toBe(true);
    expect(policyMatches(policy, '휴지통', policy.description, policyCategory(t, policy))).toBe(false);
  });
});
