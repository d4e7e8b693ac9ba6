import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import ko from './ko.json';

const i18n = createInstance();
await i18n.init({ resources: { ko: { translation: ko }, en: { translation: en } }, lng: 'en', interpolation: { escapeValue: false } });

describe('counted texts', () => {
  it('English says 1 item and 2 items, with grouped digits', () => {
    const t = i18n.getFixedT('en');
    expect(t('items_count', { count: 1 })).toBe('1 item');
    expect(t('items_count', { count: 2 })).toBe('2 items');
    expect(t('items_count', { count: 10000 })).toBe('10,000 items');
    expect(t('confirm_trash_message', { count: 1 })).toBe('Move the selected item to the trash?');
    expect(t('trash_retention_on', { count: 30 })).toBe('Items in the trash for more than 30 days are deleted permanently.');
  });

  it('Korean counts with its counters', () => {
    const t = i18n.getFixedT('ko');
    expect(t('items_count', { count: 3 })).toBe('3개 항목');
    expect(t('items_count', { count: 1 })).toBe('1개 항목');
    expect(t('dashboard_uploads_count', { count: 1200 })).toBe('업로드 1,200건');
  });

  it('no English text hedges a plural with "(s)"', () => {
    expect(Object.entries(en).filter(([key, text]) => !key.startsWith('note_') && text.includes('(s)'))).toEqual([]);
  });
});
