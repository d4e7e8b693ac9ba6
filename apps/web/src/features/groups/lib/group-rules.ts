import { DEFAULT_GROUP_NAME } from '@bogwan/contracts';

/**
 * The spec's rule for Edit info: enabled only when name and description are both filled
 * and both differ from the current values.
 */
export function canSaveGroupInfo(current: { name: string; description: string }, next: { name: string; description: string }): boolean {
  const name = next.name.trim();
  const description = next.description.trim();
  return name !== '' && description !== '' && name !== current.name && description !== current.description;
}

/** The group named default cannot be deleted, so its delete action is not shown. */
export function isDefaultGroup(group: { name: string }): boolean {
  return group.name === DEFAULT_GROUP_NAME;
}
