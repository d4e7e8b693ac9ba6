/** Query keys of snapshots and restores; mutations invalidate by these prefixes. */
export const snapshotKeys = {
  all: ['snapshot'] as const,
  plans: () => ['snapshot', 'plans'] as const,
  runs: (query: object) => ['snapshot', 'runs', query] as const,
  items: (runId: string, path: string) => ['snapshot', 'items', runId, path] as const,
  roots: () => ['snapshot', 'roots'] as const,
  restores: (query: object) => ['restore', 'list', query] as const,
  restoresAll: ['restore'] as const,
};

/** How often lists refresh while something runs (the task panel has the live figures). */
export const RUNNING_REFRESH_MS = 2000;
