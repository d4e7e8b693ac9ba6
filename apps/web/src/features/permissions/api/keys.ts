/** Query keys of permissions; every permission mutation invalidates `permissionsKeys.all`. */
export const permissionsKeys = {
  all: ['permissions'] as const,
  setting: ['permissions', 'setting'] as const,
  resources: ['permissions', 'resources'] as const,
  resourceAt: (path: string) => ['permissions', 'resource', path] as const,
  roots: ['permissions', 'roots'] as const,
};
