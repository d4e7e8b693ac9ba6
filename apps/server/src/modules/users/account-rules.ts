import type { Role, UserStatus } from '@bogwan/contracts';

/** The parts of an account the role rules look at. */
export interface AccountActor {
  id: string;
  role: string;
  role_level: number;
}

export interface AccountChange {
  name?: string;
  role?: Role;
  status?: UserStatus;
  approved?: boolean;
  groups?: string[];
  profileImage?: null;
}

/**
 * Whether `actor` may make `change` to `target` (the spec's role rules):
 * - one's own name and avatar: anyone;
 * - someone else's name, status, approval and groups: level 3 for anyone, level 2 only for USERs;
 * - a role: level 3 for anyone but a MASTER, level 2 only for USERs and never to MASTER;
 * - never one's own role, status, approval or groups (no one locks themself out or raises
 *   themself), never someone else's avatar.
 */
export function mayChangeAccount(actor: AccountActor, target: AccountActor, change: AccountChange): boolean {
  const self = actor.id === target.id;
  const administrative = change.role !== undefined || change.status !== undefined || change.approved !== undefined || change.groups !== undefined;
  if (change.profileImage !== undefined && !self) return false;
  if (self) return !administrative;
  if (actor.role_level < 2) return false;
  if (actor.role_level === 2 && target.role !== 'USER') return false;
  if (change.role !== undefined) {
    if (actor.role_level >= 3) return target.role !== 'MASTER';
    return change.role !== 'MASTER';
  }
  return true;
}

/**
 * Whether `actor` may put `target` into a group or take them out of one: the same rule as a
 * `groups` change of the account, whichever call makes it (`PUT /api/user`, the group's members).
 */
export function mayChangeGroupsOf(actor: AccountActor, target: AccountActor): boolean {
  return mayChangeAccount(actor, target, { groups: [] });
}

/** Whether `actor` may delete `target`'s account from the account list. */
export function mayDeleteAccount(actor: AccountActor, target: AccountActor): boolean {
  if (actor.id === target.id || actor.role_level < 2) return false;
  if (actor.role_level === 2) return target.role === 'USER';
  return true;
}
