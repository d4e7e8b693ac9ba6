import { PERMISSION_COLUMNS, PERMISSION_TYPES, type PermissionType, type ResourceEntryInput } from '@bogwan/contracts';

export type MatrixColumn = (typeof PERMISSION_COLUMNS)[number];

/** An entity's permissions on a resource; null when it has no entry of its own (it inherits). */
export type EntryPermissions = readonly PermissionType[] | null;

/** The permissions in the spec's fixed order, each once. */
export function canonical(permissions: readonly string[]): PermissionType[] {
  return PERMISSION_TYPES.filter((p) => permissions.includes(p));
}

/** Whether a column's permissions are all there, some of them, or none. */
export function columnState(permissions: EntryPermissions, column: MatrixColumn): 'all' | 'some' | 'none' {
  const held = column.permissions.filter((p) => permissions?.includes(p)).length;
  if (held === 0) return 'none';
  return held === column.permissions.length ? 'all' : 'some';
}

/**
 * The spec's column click: adds all of the column's permissions if any is missing, or
 * removes them all if all are present. A row without an entry starts from nothing.
 */
export function toggleColumn(permissions: EntryPermissions, column: MatrixColumn): PermissionType[] {
  const current = permissions ?? [];
  if (columnState(current, column) === 'all') return canonical(current.filter((p) => !column.permissions.includes(p)));
  return canonical([...current, ...column.permissions]);
}

/** One permission on or off. */
export function togglePermission(permissions: EntryPermissions, permission: PermissionType): PermissionType[] {
  const current = permissions ?? [];
  return canonical(current.includes(permission) ? current.filter((p) => p !== permission) : [...current, permission]);
}

/** The none column is ticked when the entity has an entry that grants nothing. */
export function isNone(permissions: EntryPermissions): boolean {
  return permissions !== null && permissions.length === 0;
}

/** Columns of the folder matrix: those not marked hidden. */
export const MATRIX_COLUMNS: readonly MatrixColumn[] = PERMISSION_COLUMNS.filter((column) => !column.hidden);

function same(a: EntryPermissions, b: EntryPermissions): boolean {
  if (a === null || b === null) return a === b;
  const left = canonical(a);
  const right = canonical(b);
  return left.length === right.length && left.every((p, i) => p === right[i]);
}

/**
 * The entries to send: only those that differ from how they were loaded. A removed entry
 * is sent as `remove`, so the resource falls back to what it inherits. Nothing changed → [].
 */
export function changedEntries(original: ReadonlyMap<string, EntryPermissions>, current: ReadonlyMap<string, EntryPermissions>): ResourceEntryInput[] {
  const changes: ResourceEntryInput[] = [];
  for (const [entity, permissions] of current) {
    const before = original.get(entity) ?? null;
    if (same(before, permissions)) continue;
    changes.push(permissions === null ? { entity, remove: true } : { entity, permissions: canonical(permissions) });
  }
  return changes;
}

/** Whether two permission lists hold the same names (order aside). */
export function samePermissions(a: readonly string[], b: readonly string[]): boolean {
  return same(canonical(a), canonical(b));
}
