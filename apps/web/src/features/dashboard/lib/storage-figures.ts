import type { DashboardBackend, DashboardRoot } from '@bogwan/contracts';

/**
 * What a backend's gauge shows: used against its limit, or against the disk when its
 * roots are unlimited; no percentage when neither is known (an unlimited cloud backend).
 */
export function backendCapacity(backend: DashboardBackend): { capacity: number | null; percent: number | null } {
  const capacity = backend.limit ?? backend.disk?.total ?? null;
  if (capacity === null || capacity <= 0) return { capacity, percent: null };
  return { capacity, percent: Math.min(100, (backend.used / capacity) * 100) };
}

/** One bar per root: its usage, and the room its limit leaves (0 when unlimited or full). */
export function rootBars(roots: DashboardRoot[]): { name: string; used: number; free: number }[] {
  return roots.map((root) => ({
    name: root.name,
    used: root.usage,
    free: root.volume === null ? 0 : Math.max(0, root.volume - root.usage),
  }));
}
