import { describe, expect, it } from 'vitest';
import { mayChangeAccount, mayChangeGroupsOf, mayDeleteAccount, type AccountActor } from './account-rules.js';

const master: AccountActor = { id: 'm', role: 'MASTER', role_level: 3 };
const master2: AccountActor = { id: 'm2', role: 'MASTER', role_level: 3 };
const admin: AccountActor = { id: 'a', role: 'ADMIN', role_level: 2 };
const admin2: AccountActor = { id: 'a2', role: 'ADMIN', role_level: 2 };
const user: AccountActor = { id: 'u', role: 'USER', role_level: 1 };
const user2: AccountActor = { id: 'u2', role: 'USER', role_level: 1 };

describe('account role rules', () => {
  it.each([
    ['MASTER sets a USER status', master, user, { status: 'BLOCK' as const }, true],
    ['MASTER sets an ADMIN role', master, admin, { role: 'USER' as const }, true],
    ["MASTER sets another MASTER's status", master, master2, { status: 'BLOCK' as const }, true],
    ["MASTER may not change a MASTER's role", master, master2, { role: 'USER' as const }, false],
    ['ADMIN sets a USER status', admin, user, { status: 'ACTIVE' as const }, true],
    ['ADMIN promotes a USER to ADMIN', admin, user, { role: 'ADMIN' as const }, true],
    ['ADMIN may not make anyone MASTER', admin, user, { role: 'MASTER' as const }, false],
    ['ADMIN may not edit another ADMIN', admin, admin2, { status: 'BLOCK' as const }, false],
    ['ADMIN may not edit a MASTER', admin, master, { role: 'USER' as const }, false],
    ['ADMIN may not promote themself', admin, admin, { role: 'MASTER' as const }, false],
    ['MASTER may not block themself', master, master, { status: 'BLOCK' as const }, false],
    ['USER may not edit another USER', user, user2, { name: 'X' }, false],
    ['USER may not set their own role (mass assignment)', user, user, { name: 'X', role: 'ADMIN' as const }, false],
    ['USER renames themself', user, user, { name: 'X' }, true],
    ['USER removes their own avatar', user, user, { profileImage: null }, true],
    ["ADMIN may not remove a USER's avatar", admin, user, { profileImage: null }, false],
    ['ADMIN sets a USER groups', admin, user, { groups: ['g'] }, true],
    ['USER may not join groups on their own', user, user, { groups: ['g'] }, false],
  ])('%s', (_name, actor, target, change, expected) => {
    expect(mayChangeAccount(actor, target, change)).toBe(expected);
  });

  it.each([
    ['MASTER deletes an ADMIN', master, admin, true],
    ['MASTER deletes another MASTER', master, master2, true],
    ['ADMIN deletes a USER', admin, user, true],
    ['ADMIN may not delete an ADMIN', admin, admin2, false],
    ['no one deletes themself here', master, master, false],
    ['USER deletes no one', user, user2, false],
  ])('%s', (_name, actor, target, expected) => {
    expect(mayDeleteAccount(actor, target)).toBe(expected);
  });

  it.each([
    ['ADMIN moves a USER between groups', admin, user, true],
    ['ADMIN may not move another ADMIN', admin, admin2, false],
    ['ADMIN may not move a MASTER', admin, master, false],
    ['ADMIN may not move themself', admin, admin, false],
    ['MASTER moves an ADMIN', master, admin, true],
    ['MASTER moves another MASTER', master, master2, true],
    ['USER moves no one', user, user2, false],
  ])('group membership: %s', (_name, actor, target, expected) => {
    expect(mayChangeGroupsOf(actor, target)).toBe(expected);
  });
});
