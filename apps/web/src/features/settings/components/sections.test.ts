import { describe, expect, it } from 'vitest';
import { SETTING_IDS } from '../../../state/settings';
import { SETTING_GROUPS, initialSection, visibleGroups } from './sections';

describe('settings sections', () => {
  it('gives every section of the tree its own id from the list', () => {
    const ids = SETTING_GROUPS.flatMap((group) => group.sections.map((section) => section.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...SETTING_IDS].sort());
  });

  it('shows a USER only the private group', () => {
    expect(visibleGroups(1).map((group) => group.id)).toEqual(['private']);
    expect(visibleGroups(2).map((group) => group.id)).toEqual(['private', 'user', 'storage', 'permission', 'integration', 'system']);
  });

  it('opens the remembered section when this user may, else the first one that exists', () => {
    expect(initialSection('license', 3).id).toBe('license');
    expect(initialSection('license', 1).id).toBe('profile');
    expect(initialSection('account', 1).id).toBe('profile');
    expect(initialSection('account', 2).id).toBe('account');
    expect(initialSection('activity', 1).id).toBe('activity');
    expect(initialSection('profile', 3).id).toBe('profile');
    expect(initialSection(null, 1).id).toBe('profile');
  });

  it('gives every section that can be opened a description', () => {
    const open = SETTING_GROUPS.flatMap((group) => group.sections).filter((section) => section.available);
    expect(open.map((section) => section.id)).toEqual([
      'profile',
      'notification',
      'security',
      'activity',
      'delete',
      'account',
      'group',
      'server',
      'cloud',
      'volume',
      'default_permissions',
      'folder',
      'resource',
      'incoming',
      'outgoing',
      'information',
      'license',
      'network',
      'policy',
      'log',
      'audit',
    ]);
    expect(open.every((section) => section.description)).toBe(true);
  });
});
