import { AUDIT_ACTION_NAMES, AUDIT_ACTIONS, auditService, type AuditRecord } from '@bogwan/contracts';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../../i18n/en.json';
import ko from '../../../i18n/ko.json';
import { ACTION_DETAILS, FAMILY_LABELS, actionDetail, actionLabel, actionsByFamily, placeholders } from './action-text';

const catalogues = { ko: ko as Record<string, string>, en: en as Record<string, string> };
const translators: Partial<Record<'ko' | 'en', TFunction>> = {};

beforeAll(async () => {
  for (const locale of ['ko', 'en'] as const) {
    const instance = i18next.createInstance();
    await instance.init({ lng: locale, resources: { [locale]: { translation: catalogues[locale] } }, interpolation: { escapeValue: false } });
    translators[locale] = instance.t;
  }
});

const record = (action: string, params: AuditRecord['params'] = {}, message = ''): Pick<AuditRecord, 'action' | 'params' | 'message'> => ({
  action,
  params,
  message,
});

describe.each(['ko', 'en'] as const)('audit actions in %s', (locale) => {
  it('every action reads as the contract names it in this language, never the raw key', () => {
    const labels = AUDIT_ACTIONS.map((action) => actionLabel(locale, action));
    expect(labels).toEqual(AUDIT_ACTIONS.map((action) => AUDIT_ACTION_NAMES[action][locale]));
    expect(labels.filter((label, i) => label === AUDIT_ACTIONS[i] || label.startsWith('audit_'))).toEqual([]);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('every family of the vocabulary has a name', () => {
    const families = [...new Set(AUDIT_ACTIONS.map(auditService))];
    expect(families.filter((family) => !catalogues[locale][FAMILY_LABELS[family] ?? ''])).toEqual([]);
  });

  it('a legacy row shows the message it was stored with', () => {
    const t = translators[locale]!;
    expect(actionDetail(t, record('legacy', { message: 'Downloaded /a.txt' }, 'fallback'))).toBe('Downloaded /a.txt');
    expect(actionDetail(t, record('legacy', {}, 'fallback'))).toBe('fallback');
  });

  it('a detail text is shown only when the record has every value it names', () => {
    const t = translators[locale]!;
    for (const [action, key] of Object.entries(ACTION_DETAILS)) {
      const names = placeholders(catalogues[locale][key!] ?? '');
      expect(names.length, `${key} interpolates nothing`).toBeGreaterThan(0);
      const params = Object.fromEntries(names.map((name) => [name, `«${name}»`]));
      const text = actionDetail(t, record(action, params));
      for (const name of names) expect(text).toContain(`«${name}»`);
      expect(text).not.toContain('{{');
      expect(actionDetail(t, record(action, {}))).toBe('');
    }
  });
});

describe('audit action catalogue', () => {
  it('ko and en interpolate the same values in every detail text', () => {
    for (const key of Object.values(ACTION_DETAILS)) {
      expect(placeholders(catalogues.en[key!] ?? '').sort(), key).toEqual(placeholders(catalogues.ko[key!] ?? '').sort());
    }
  });

  it('groups every action under its family exactly once', () => {
    const grouped = actionsByFamily().flatMap((group) => group.actions);
    expect([...grouped].sort()).toEqual([...AUDIT_ACTIONS].sort());
    expect(actionsByFamily()[0]?.family).toBe('file');
  });

  it('an action this build does not know shows as recorded', () => {
    expect(actionLabel('ko', 'future.action')).toBe('future.action');
  });
});
