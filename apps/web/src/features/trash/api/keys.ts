/** Query keys of the trash screen; mutations invalidate `all`. */
export const trashKeys = {
  all: ['trash'] as const,
  page: (skip: number, limit: number) => ['trash', 'page', skip, limit] as const,
  mine: (skip: number, limit: number) => ['trash', 'mine', skip, limit] as const,
  retention: ['trash', 'retention'] as const,
};
