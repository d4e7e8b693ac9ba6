import type { RootUsage, UsageBreakdown } from '@bogwan/contracts';

/** One root folder's line in the usage bar's details. */
export interface RootUsageLine {
  name: string;
  used: number;
  /** null: the root has no limit. */
  limit: number | null;
  /** Its live files, versions and trash (the limit applies to their sum, `used`). */
  breakdown: UsageBreakdown;
}

/** What the usage bar shows. */
export interface UsageSummary {
  /** Bytes used in the roots measured: those with a limit, or all when none has one. */
  used: number;
  /** Sum of the limits of the roots with one; null when no root has a limit. */
  total: number | null;
  /** How many of the roots have a limit (the bar measures only those). */
  limitedRoots: number;
  roots: RootUsageLine[];
}

/**
 * The usage bar's figures: used against limit over the roots that have a limit, so one
 * unlimited root does not turn the whole bar into "no limit" (it did). "No limit" only
 * when no visible root has one; each root's own line says whether it has one.
 */
export function usageSummary(usage: RootUsage): UsageSummary {
  const roots = usage.roots.map((r) => ({ name: r.name, used: r.usage, limit: r.volume, breakdown: r.breakdown }));
  const limited = roots.filter((r) => r.limit !== null);
  if (limited.length === 0) return { used: roots.reduce((sum, r) => sum + r.used, 0), total: null, limitedRoots: 0, roots };
  return {
    used: limited.reduce((sum, r) => sum + r.used, 0),
    total: limited.reduce((sum, r) => sum + r.limit!, 0),
    limitedRoots: limited.length,
    roots,
  };
}
