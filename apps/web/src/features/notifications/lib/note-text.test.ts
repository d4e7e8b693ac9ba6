import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../../../i18n/en.json';
import ko from '../../../i18n/ko.json';
import { noteParts, noteText } from './note-text';

async function translator(lng: 'ko' | 'en') {
  const instance = i18next.createInstance();
  await instance.init({ lng, resources: { ko: { translation: ko }, en: { translation: en } }, interpolation: { escapeValue: false } });
  return instance.t;
}

describe('a keyed notification in the reader language', () => {
  const batch = { key: 'note_upload_batch' as const, params: { folder: '/영업부', name: '계약서.hwp', count: 12 } };

  it('renders the same stored notification for a ko and an en reader, with plural forms', async () => {
    const tKo = await translator('ko');
    const tEn = await translator('en');
    expect(noteText(tKo, batch)).toBe('/영업부에 파일 12개를 업로드했습니다');
    expect(noteText(tEn, batch)).toBe('12 files uploaded to /영업부');
    expect(noteText(tEn, { ...batch, params: { ...batch.params, count: 1 } })).toBe('계약서.hwp uploaded to /영업부');
    expect(noteText(tKo, { ...batch, params: { ...batch.params, count: 1 } })).toBe('/영업부에 계약서.hwp 파일을 업로드했습니다');
    expect(noteText(tKo, { key: 'note_licence_ends_in', params: { count: 1, date: '2026-12-01' } })).toContain('1일 후(2026-12-01)');
    expect(noteText(tEn, { key: 'note_licence_ends_in', params: { count: 1, date: '2026-12-01' } })).toContain('ends in 1 day (');
    expect(noteText(tEn, { key: 'note_licence_ends_in', params: { count: 3, date: '2026-12-01' } })).toContain('ends in 3 days (');
  });

  it('marks emphasis from the catalogue only: a parameter holding markup stays text', async () => {
    const t = await translator('en');
    const parts = noteParts(t, { key: 'note_task_upload_failure', params: { name: '<b>x</b><img src=x onerror=alert(1)>' } });
    expect(parts).toEqual([
      { text: 'Upload failed: ', bold: false },
      { text: '<b>x</b><img src=x onerror=alert(1)>', bold: true },
    ]);
  });
});
