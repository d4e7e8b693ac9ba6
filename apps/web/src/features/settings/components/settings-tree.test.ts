import { describe, expect, it } from 'vitest';
import en from '../../../i18n/en.json';
import ko from '../../../i18n/ko.json';
import { SETTING_GROUPS } from './sections';

describe('settings tree', () => {
  it('lists no greyed-out section, and no note says some are not available yet', () => {
    const greyed = SETTING_GROUPS.flatMap((group) => group.sections).filter((section) => !section.available);
    expect(greyed.map((section) => section.id)).toEqual([]);
    expect(Object.values(en).filter((text) => /grey|gray|not available yet/i.test(text))).toEqual([]);
    expect(Object.values(ko).filter((text) => /회색|아직 사용할 수 없/.test(text))).toEqual([]);
  });
});
