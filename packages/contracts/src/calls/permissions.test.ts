import { describe, expect, it } from 'vitest';
import { ACCESS_LEVEL_PERMISSIONS, accessLevelOf, permissionNamesField, updateSettingRequestSchema } from './permissions.js';

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

  it('drop DELETE and SETTING from the default user row, not from the admin row', () => {
    const all = ['READ', 'DELETE', 'SETTING', 'TRASH'];
    const parsed = updateSettingRequestSchema.parse({ permission: { user: all, admin: all } });
    expect(parsed.permission.user).toEqual(['READ', 'TRASH']);
    expect(parsed.permission.admin).toEqual(['READ', 'TRASH', 'DELETE', 'SETTING']);
  });
});
