/** Query keys of accounts; every account mutation invalidates `accountsKeys.all`. */
export const accountsKeys = {
  all: ['accounts'] as const,
  list: ['accounts', 'list'] as const,
  permissions: (userId: string) => ['accounts', 'permissions', userId] as const,
  initialPassword: ['accounts', 'initial-password'] as const,
};
