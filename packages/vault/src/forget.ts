import type { Repository } from './repository.js';
import { listSnapshots, type SnapshotEntry } from './snapshot.js';

/** How many snapshots to keep per rule; a snapshot kept by any rule stays. */
export interface KeepPolicy {
  last?: number;
  daily?: number;
  weekly?: number;
  monthly?: number;
}

/** Which snapshots a policy keeps and removes. */
export interface ForgetPlan {
  keep: SnapshotEntry[];
  remove: SnapshotEntry[];
}

function isoWeek(d: Date): string {
  const t = new Date(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()));
  const day = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(t.getUTCFullYear(), 0, 1);
  return `${t.getUTCFullYear()}-W${Math.ceil(((t.getTime() - yearStart) / 86400000 + 1) / 7)}`;
}

const BUCKETS: [keyof KeepPolicy, (d: Date) => string][] = [
  ['daily', (d) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`],
  ['weekly', isoWeek],
  ['monthly', (d) => `${d.getFullYear()}-${d.getMonth()}`],
];

/** Applies a keep policy to one group of snapshots (same host and paths), newest first. */
export function planGroup(group: SnapshotEntry[], policy: KeepPolicy): ForgetPlan {
  const newest = [...group].sort((a, b) => b.snapshot.time.localeCompare(a.snapshot.time));
  const keep = new Set<SnapshotEntry>(newest.slice(0, policy.last ?? 0));
  for (const [rule, bucketOf] of BUCKETS) {
    const limit = policy[rule] ?? 0;
    const seen = new Set<string>();
    for (const s of newest) {
      if (seen.size >= limit) break;
      const bucket = bucketOf(new Date(s.snapshot.time));
      if (seen.has(bucket)) continue;
      seen.add(bucket);
      keep.add(s);
    }
  }
  return { keep: newest.filter((s) => keep.has(s)), remove: newest.filter((s) => !keep.has(s)) };
}

/** Removes snapshot records the policy does not keep; data goes at the next prune. */
export async function forget(repo: Repository, policy: KeepPolicy, dryRun = false): Promise<ForgetPlan> {
  if (!Object.values(policy).some((n) => (n ?? 0) > 0)) throw new Error('refusing to forget everything: give at least one --keep-* rule');
  const groups = new Map<string, SnapshotEntry[]>();
  for (const s of await listSnapshots(repo)) {
    // Checkpoints belong to a running or interrupted backup, not to the policy.
    if (s.snapshot.checkpoint) continue;
    const key = JSON.stringify([s.snapshot.host, [...s.snapshot.paths].sort()]);
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const plan: ForgetPlan = { keep: [], remove: [] };
  for (const group of groups.values()) {
    const p = planGroup(group, policy);
    plan.keep.push(...p.keep);
    plan.remove.push(...p.remove);
  }
  if (!dryRun) {
    for (const s of plan.remove) {
      repo.assertLockHeld();
      await repo.backend.delete(`snapshots/${s.id}`);
    }
  }
  return plan;
}
