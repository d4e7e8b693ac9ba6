import { describe, expect, it } from 'vitest';
import { canChangeMembership, canSaveGroupInfo, isDefaultGroup } from './group-rules';

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

  it('lets the default group change its description alone (its name is fixed)', () => {
    const def = { name: 'default', description: 'Everyone' };
    expect(canSaveGroupInfo(def, { name: 'default', description: 'All accounts' })).toBe(true);
    expect(canSaveGroupInfo(def, { name: 'default', description: 'Everyone' })).toBe(false);
    expect(canSaveGroupInfo(def, { name: 'default', description: ' ' })).toBe(false);
  });

  it('offers membership changes as the server allows them', () => {
    const admin = { _id: 'a', roleLevel: 2 };
    const master = { _id: 'm', roleLevel: 3 };
    expect(canChangeMembership(admin, { _id: 'u', role: 'USER' })).toBe(true);
    expect(canChangeMembership(admin, { _id: 'a2', role: 'ADMIN' })).toBe(false);
    expect(canChangeMembership(admin, { _id: 'm', role: 'MASTER' })).toBe(false);
    expect(canChangeMembership(admin, { _id: 'a', role: 'ADMIN' })).toBe(false);
    expect(canChangeMembership(master, { _id: 'a2', role: 'ADMIN' })).toBe(true);
    expect(canChangeMembership(master, { _id: 'm', role: 'MASTER' })).toBe(false);
  });
});
