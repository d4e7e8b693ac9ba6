import type { FileEntry, PermissionType } from '@bogwan/contracts';
import { mdiContentCopy, mdiDownload, mdiFileMoveOutline, mdiFolderOpenOutline, mdiRenameOutline, mdiStarOutline, mdiTrashCanOutline } from '@mdi/js';
import { k, type TranslationKey } from '../../../../i18n/keys';

export type ItemAction = 'open' | 'download' | 'rename' | 'move' | 'copy' | 'star' | 'trash';

interface ActionSpec {
  action: ItemAction;
  label: TranslationKey;
  icon: string;
  /** Needed on the folder holding the items. */
  permission: PermissionType;
  single?: boolean;
  shortcut?: string;
  dividerBefore?: boolean;
}

/** Every item action with its label, icon and the permission it needs (menu and action bar share it). */
export const ITEM_ACTIONS: ActionSpec[] = [
  { action: 'open', label: k('open'), icon: mdiFolderOpenOutline, permission: 'READ', single: true, shortcut: 'Enter' },
  { action: 'download', label: k('download'), icon: mdiDownload, permission: 'DOWNLOAD' },
  { action: 'rename', label: k('rename'), icon: mdiRenameOutline, permission: 'UPDATE', single: true, shortcut: 'F2', dividerBefore: true },
  { action: 'move', label: k('move'), icon: mdiFileMoveOutline, permission: 'MOVE' },
  { action: 'copy', label: k('copy'), icon: mdiContentCopy, permission: 'COPY' },
  { action: 'star', label: k('star'), icon: mdiStarOutline, permission: 'READ', dividerBefore: true },
  { action: 'trash', label: k('trash'), icon: mdiTrashCanOutline, permission: 'TRASH', shortcut: 'Delete', dividerBefore: true },
];

/** Actions offered for the selection: those the permission list allows (a file opens with PREVIEW). */
export function allowedActions(items: FileEntry[], permissions: readonly PermissionType[]): ItemAction[] {
  return ITEM_ACTIONS.filter((spec) => {
    if (spec.single && items.length !== 1) return false;
    if (spec.action === 'open') {
      const first = items[0];
      return first ? permissions.includes(first.folder ? 'READ' : 'PREVIEW') : false;
    }
    return permissions.includes(spec.permission);
  }).map((spec) => spec.action);
}
