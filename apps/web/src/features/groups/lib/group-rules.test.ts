import { describe, expect, it } from 'vitest';
import { canSaveGroupInfo, isDefaultGroup } from './group-rules';

describe('group rules', () => {
  const current = { name: 'Sales', description: 'Sales team' };

  it('enables Edit info only when name and description are both filled and both changed', () => {
    expect(canSaveGroupInfo(current, { name: 'Sales EU', description: 'Sales in Europe' })).toBe(true);
    expect(canSaveGroupInfo(current, { name: 'Sales EU', description: 'Sales team' })).toBe(false);
    expect(canSaveGroupInfo(current, { name: 'Sales', description: 'Other' })).toBe(false);
    expect(canSaveGroupInfo(current, { name: 'Sales EU', description: '  ' })).toBe(false);
    expect(canSaveGroupInfo(current, { name: ' ', description: 'Other' })).toBe(false);
  });

  it('knows the default group', () => {
    expect(isDefaultGroup({ name: 'default' })).toBe(true);
    expect(isDefaultGroup({ name: 'Default team' })).toBe(false);
  });
});
