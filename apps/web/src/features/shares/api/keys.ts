/** Query keys of share links; every mutation invalidates `sharesKeys.all`. */
export const sharesKeys = {
  all: ['shares'] as const,
  list: ['shares', 'list'] as const,
  public: (key: string, token: string | null) => ['shares', 'public', key, token ?? ''] as const,
  publicList: (key: string, token: string | null, path: string) => ['shares', 'public', key, token ?? '', 'list', path] as const,
};
