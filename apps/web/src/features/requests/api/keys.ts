/** Query keys of secure-folder requests; every mutation invalidates `requestsKeys.all`. */
export const requestsKeys = {
  all: ['requests'] as const,
  box: (box: string) => ['requests', 'box', box] as const,
  secure: (path: string) => ['requests', 'secure', path] as const,
};
