/** Query keys of groups; every group mutation invalidates `groupsKeys.all`. */
export const groupsKeys = {
  all: ['groups'] as const,
  list: ['groups', 'list'] as const,
  info: ['groups', 'info'] as const,
};
