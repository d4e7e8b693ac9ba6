import type { DashboardBackend, DashboardRoot } from '@bogwan/contracts';

/** What a backend's gauge measures: the disk under it, else its roots' limits, else nothing. */
export type GaugeBasis = 'disk' | 'limit' | null;

/**
 * A backend's gauge. With a disk (the server backend) it shows the disk as `df` does: all
 * that is used on it against its size, so a disk 71 % full reads 71 %, however little of
 * it is Bogwan's (that share is shown apart). Without one (the cloud backend) it shows
 * Bogwan's bytes against the sum of the roots' limits; no percentage when unlimited.
 */
export function backendGauge(backend: DashboardBackend): { basis: GaugeBasis; percent: number | null } {
  if (backend.disk && backend.disk.total > 0) return { basis: 'disk', percent: Math.min(100, (backend.disk.used / backend.disk.total) * 100) };
  if (backend.limit !== null && backend.limit > 0) return { basis: 'limit', percent: Math.min(100, (backend.used / backend.limit) * 100) };
  return { basis: null, percent: null };
}

/** One bar per root: its live files, versions and trash stacked, then the room its limit leaves (0 when unlimited or full). */
export function rootBars(roots: DashboardRoot[]): { name: string; live: number; versions: number; trash: number; free: number }[] {
  return roots.map((root) => ({
    name: root.name,
    ...root.breakdown,
    free: root.volume === null ? 0 : Math.max(0, root.volume - root.usage),
  }));
}
