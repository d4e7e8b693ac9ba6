import { describe, expect, it } from 'vitest';
import { ACCESS_LEVEL_PERMISSIONS, accessLevelOf, permissionNamesField } from './permissions.js';

describe('access levels', () => {
  it('summarise a permission list', () => {
    expect(accessLevelOf([])).toBe(0);
    expect(accessLevelOf(['DOWNLOAD', 'PREVIEW'])).toBe(0);
    expect(accessLevelOf(['READ', 'DOWNLOAD'])).toBe(1);
    expect(accessLevelOf(['READ', 'TRASH'])).toBe(2);
    for (const level of [0, 1, 2, 3] as const) expect(accessLevelOf(ACCESS_LEVEL_PERMISSIONS[level])).toBe(level);
  });

  it('drop unknown permission names and order the rest', () => {
    expect(permissionNamesField.parse(['DOWNLOAD', 'FLY', 'READ', 'READ'])).toEqual(['READ', 'DOWNLOAD']);
  });
});
