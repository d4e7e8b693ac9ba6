import type { PermissionType } from '@bogwan/contracts';
import type { EntryRow } from './permissions.repo.js';

/** What one check needs to know about the user. */
export interface Principal {
  userId: string;
  groupIds: string[];
  /** The default permissions of the user's role (setting `permission.user`). */
  defaults: readonly PermissionType[];
}

/** Entries by node id, then by `user:<id>` / `group:<id>`. */
export type EntryIndex = Map<string, Map<string, EntryRow>>;

export function indexEntries(entries: EntryRow[]): EntryIndex {
  const index: EntryIndex = new Map();
  for (const entry of entries) {
    const byEntity = index.get(entry.node_id) ?? new Map<string, EntryRow>();
    byEntity.set(`${entry.entity_type}:${entry.entity_id}`, entry);
    index.set(entry.node_id, byEntity);
  }
  return index;
}

/** The nearest entry of one entity along a chain (the node itself first, its root last). */
function nearest(index: EntryIndex, chain: readonly string[], entity: string): EntryRow | undefined {
  for (const nodeId of chain) {
    const entry = index.get(nodeId)?.get(entity);
    if (entry) return entry;
  }
  return undefined;
}

/**
 * The spec's effective permission, with inheritance per entity: each user or group is governed
 * by its entry on the nearest node up the chain that has one.
 * - The user's own entry wins outright (an empty one denies everything).
 * - Otherwise the union over the user's groups: a group's entry where it has one, the defaults
 *   where it has none. A user in no group gets the defaults.
 */
export function effectivePermissions(principal: Principal, chain: readonly string[], index: EntryIndex): Set<PermissionType> {
  const own = nearest(index, chain, `user:${principal.userId}`);
  if (own) return new Set(own.permissions);
  if (principal.groupIds.length === 0) return new Set(principal.defaults);
  const held = new Set<PermissionType>();
  for (const groupId of principal.groupIds) {
    const entry = nearest(index, chain, `group:${groupId}`);
    for (const permission of entry ? entry.permissions : principal.defaults) held.add(permission);
  }
  return held;
}
