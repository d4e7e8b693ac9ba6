import { describe, expect, it } from 'vitest';
import { assignableRoles, canDeleteAccount, canEditGroups, canEditRole, canEditStatus, matchesKeyword, type Party } from './role-rules';

const master: Party = { _id: 'm', role: 'MASTER', roleLevel: 3 };
const otherMaster: Party = { _id: 'm2', role: 'MASTER', roleLevel: 3 };
const admin: Party = { _id: 'a', role: 'ADMIN', roleLevel: 2 };
const otherAdmin: Party = { _id: 'a2', role: 'ADMIN', roleLevel: 2 };
const user: Party = { _id: 'u', role: 'USER', roleLevel: 1 };
const otherUser: Party = { _id: 'u2', role: 'USER', roleLevel: 1 };

describe('account role rules', () => {
  it('lets level 3 change the status of anyone else and the role of anyone but a MASTER', () => {
    expect(canEditStatus(master, otherMaster)).toBe(true);
    expect(canEditStatus(master, admin)).toBe(true);
    expect(canEditRole(master, admin)).toBe(true);
    expect(canEditRole(master, user)).toBe(true);
    expect(canEditRole(master, otherMaster)).toBe(false);
  });

  it('lets level 2 change only other USERs, never an administrator or themself', () => {
    expect(canEditStatus(admin, user)).toBe(true);
    expect(canEditRole(admin, user)).toBe(true);
    expect(canEditStatus(admin, otherAdmin)).toBe(false);
    expect(canEditRole(admin, otherAdmin)).toBe(false);
    expect(canEditStatus(admin, master)).toBe(false);
    expect(canEditStatus(admin, admin)).toBe(false);
    expect(canEditRole(admin, admin)).toBe(false);
  });

  it('gives a USER no say over anyone', () => {
    expect(canEditStatus(user, otherUser)).toBe(false);
    expect(canEditRole(user, otherUser)).toBe(false);
    expect(canDeleteAccount(user, otherUser)).toBe(false);
  });

  it('never offers a role above the actor', () => {
    expect(assignableRoles(admin)).toEqual(['USER', 'ADMIN']);
    expect(assignableRoles(master)).toEqual(['USER', 'ADMIN', 'MASTER']);
  });

  it('lets no one delete their own account from the list', () => {
    expect(canDeleteAccount(master, master)).toBe(false);
    expect(canDeleteAccount(master, otherMaster)).toBe(true);
    expect(canDeleteAccount(admin, otherAdmin)).toBe(false);
    expect(canDeleteAccount(admin, user)).toBe(true);
  });

  it('finds accounts by name or email', () => {
    const account = { name: '홍길동', email: 'Hong@Example.com' };
    expect(matchesKeyword(account, '길동')).toBe(true);
    expect(matchesKeyword(account, ' hong@ ')).toBe(true);
    expect(matchesKeyword(account, 'kim')).toBe(false);
    expect(matchesKeyword(account, '')).toBe(true);
  });

  it('offers group changes as the server allows them: never one\u2019s own, level 2 for USERs only', () => {
    expect(canEditGroups(admin, user)).toBe(true);
    expect(canEditGroups(admin, otherAdmin)).toBe(false);
    expect(canEditGroups(admin, admin)).toBe(false);
    expect(canEditGroups(master, master)).toBe(false);
    expect(canEditGroups(master, otherMaster)).toBe(true);
  });
});
