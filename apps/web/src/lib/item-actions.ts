import type { FileEntry, PermissionType } from '@bogwan/contracts';

/**
 * An action another part of the app adds to the file menu and the selection bar (share, lock,
 * requests, versions, history): shown when `visible` says so for the selected items.
 */
export interface ExtraItemAction {
  id: string;
  /** Already translated. */
  label: string;
  icon: string;
  visible: (items: FileEntry[], permissions: readonly PermissionType[]) => boolean;
  run: (items: FileEntry[]) => void;
}
