import { DEFAULT_GROUP_NAME } from '@bogwan/contracts';

/**
 * The spec's rule for Edit info: enabled only when name and description are both filled
 * and both differ from the current values. The default group's name is fixed, so there
 * only the description has to be filled and changed.
 */
export function canSaveGroupInfo(current: { name: string; description: string }, next: { name: string; description: string }): boolean {
  const name = next.name.trim();
  const description = next.description.trim();
  const descriptionOk = description !== '' && description !== current.description;
  if (isDefaultGroup(current)) return descriptionOk;
  return name !== '' && name !== current.name && descriptionOk;
}

/** The group named default cannot be deleted or renamed: no delete action, a read-only name. */
export function isDefaultGroup(group: { name: string }): boolean {
  return group.name === DEFAULT_GROUP_NAME;
}

/** Who the acting account is, for the membership rule. */
export interface MemberActor {
  _id: string;
  roleLevel: number;
}

/**
 * Inviting someone to a group or removing them: the account rules for groups (level 3 anyone
 * else, level 2 only other USERs, never oneself). The server applies the same rule.
 */
export function canChangeMembership(actor: MemberActor, target: { _id: string; role: string }): boolean {
  if (actor._id === target._id) return false;
  if (actor.roleLevel >= 3) return true;
  return actor.roleLevel === 2 && target.role === 'USER';
}
