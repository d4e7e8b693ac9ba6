import { AUDIT_ACTION_NAMES, type AuditRecord } from '@bogwan/contracts';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../../i18n/en.json';
import ko from '../../../i18n/ko.json';
import { recordText } from './action-text';
import { readLegacyMessage } from './legacy-action';

const legacy = (message: string): Pick<AuditRecord, 'action' | 'params' | 'message'> => ({ action: 'legacy', params: { service: 'file', message }, message });
const translators: Partial<Record<'ko' | 'en', TFunction>> = {};

beforeAll(async () => {
  for (const [locale, catalogue] of [
    ['ko', ko],
    ['en', en],
  ] as const) {
    const instance = i18next.createInstance();
    await instance.init({ lng: locale, resources: { [locale]: { translation: catalogue } }, interpolation: { escapeValue: false } });
    translators[locale] = instance.t;
  }
});

describe('old activity-log rows', () => {
  it('reads the sentences the old log wrote as audit actions, with what they were about', () => {
    expect(readLegacyMessage('Moved /문서/a.txt to the trash')).toEqual({ action: 'file.trash', subject: '/문서/a.txt' });
    expect(readLegacyMessage('Moved /a.txt to /b')).toEqual({ action: 'file.move', subject: '/a.txt' });
    expect(readLegacyMessage('Signed in (password)')).toEqual({ action: 'auth.sign_in', subject: '' });
    expect(readLegacyMessage('Created a share link (anyone) for /공유')).toEqual({ action: 'share.create', subject: '/공유' });
    expect(readLegacyMessage('Group 영업팀 edited (now 영업1팀)')).toEqual({ action: 'group.update', subject: '영업팀' });
    expect(readLegacyMessage('Permissions of /팀 changed (2 entries)')).toEqual({ action: 'permission.change', subject: '/팀' });
    expect(readLegacyMessage('Something nobody wrote')).toBeNull();
  });

  it('shows no English in Korean where the action can be told, and the stored text where it cannot', () => {
    const t = translators.ko!;
    expect(recordText(t, 'ko', legacy('Moved /문서/a.txt to the trash'))).toEqual({ label: AUDIT_ACTION_NAMES['file.trash'].ko, detail: '/문서/a.txt' });
    expect(recordText(t, 'ko', legacy('Signed out'))).toEqual({ label: '로그아웃', detail: '' });
    expect(recordText(t, 'ko', legacy('Something nobody wrote'))).toEqual({ label: AUDIT_ACTION_NAMES.legacy.ko, detail: 'Something nobody wrote' });
  });

  it('keeps the stored sentence in English', () => {
    expect(recordText(translators.en!, 'en', legacy('Signed out'))).toEqual({ label: AUDIT_ACTION_NAMES.legacy.en, detail: 'Signed out' });
  });
});
