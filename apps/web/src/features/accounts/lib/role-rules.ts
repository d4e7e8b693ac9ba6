import { ROLES, type Role } from '@bogwan/contracts';

/** Who acts and on whom: enough of a user to apply the spec's role rules. */
export interface Party {
  _id: string;
  role: Role;
  roleLevel: number;
}

/**
 * Status: level 3 may change anyone's but their own; level 2 only other USERs. Changing
 * one's own status is never offered (an administrator would lock themself out).
 */
export function canEditStatus(actor: Party, target: Party): boolean {
  if (actor._id === target._id) return false;
  if (actor.roleLevel >= 3) return true;
  return actor.roleLevel === 2 && target.role === 'USER';
}

/** Role: level 3 may change anyone's but a MASTER's; level 2 only other USERs; never one's own. */
export function canEditRole(actor: Party, target: Party): boolean {
  if (actor._id === target._id || target.role === 'MASTER') return false;
  if (actor.roleLevel >= 3) return true;
  return actor.roleLevel === 2 && target.role === 'USER';
}

/** Roles an actor may hand out: never one above their own level. */
export function assignableRoles(actor: Party): Role[] {
  return actor.roleLevel >= 3 ? [...ROLES] : ROLES.filter((role) => role !== 'MASTER');
}

/** Deleting an account: the same reach as changing its role, and never one's own here. */
export function canDeleteAccount(actor: Party, target: Party): boolean {
  if (actor._id === target._id) return false;
  if (actor.roleLevel >= 3) return true;
  return actor.roleLevel === 2 && target.role === 'USER';
}

/** Groups: as for the status, so never one's own (the server refuses self-service membership). */
export function canEditGroups(actor: Party, target: Party): boolean {
  return canEditStatus(actor, target);
}

/** Editing name and folder access in the edit dialog: one's own name, otherwise as for the status. */
export function canEditAccount(actor: Party, target: Party): boolean {
  if (actor._id === target._id) return true;
  return canEditStatus(actor, target);
}

/** Accounts whose name or email holds the keyword (case and surrounding spaces ignored). */
export function matchesKeyword(account: { name: string; email: string }, keyword: string): boolean {
  const needle = keyword.trim().toLowerCase();
  if (!needle) return true;
  return account.name.toLowerCase().includes(needle) || account.email.toLowerCase().includes(needle);
}
