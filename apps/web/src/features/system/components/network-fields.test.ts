import { networkAddressSchema } from '@bogwan/contracts';
import { describe, expect, it } from 'vitest';
import en from '../../../i18n/en.json';
import ko from '../../../i18n/ko.json';
import { NETWORK_FIELD_LABELS } from './network-section';

describe('network address fields', () => {
  const fields = Object.keys(networkAddressSchema.shape);

  it.each([
    ['ko', ko],
    ['en', en],
  ] as const)('every field the server reports has a %s label, not its raw name', (_locale, catalogue) => {
    const texts = catalogue as Record<string, string>;
    const labels = fields.map((field) => texts[NETWORK_FIELD_LABELS[field] ?? ''] ?? field);
    expect(labels.filter((label, i) => label === fields[i])).toEqual([]);
  });

  it('reads address, netmask and mac in Korean', () => {
    const texts = ko as Record<string, string>;
    for (const field of ['address', 'netmask', 'mac']) expect(texts[NETWORK_FIELD_LABELS[field]!]).toMatch(/[\uAC00-\uD7A3]/);
  });
});
