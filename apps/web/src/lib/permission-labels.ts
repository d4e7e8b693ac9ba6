import type { PermissionType } from '@bogwan/contracts';
import { k } from '../i18n/keys';

/** Header text of each matrix column (the spec's column ids), plus none. */
export const COLUMN_LABELS: Record<string, ReturnType<typeof k>> = {
  all: k('perm_col_all'),
  read: k('perm_col_read'),
  preview: k('perm_col_preview'),
  download: k('perm_col_download'),
  create: k('perm_col_create'),
  update: k('perm_col_update'),
  move_copy: k('perm_col_move_copy'),
  share: k('perm_col_share'),
  trash: k('perm_col_trash'),
  lock_unlock: k('perm_col_lock_unlock'),
  delete: k('perm_col_delete'),
  setting: k('perm_col_setting'),
  none: k('perm_col_none'),
};

/** Name of each single permission. */
export const PERMISSION_LABELS = {
  READ: k('permission_read'),
  PREVIEW: k('permission_preview'),
  DOWNLOAD: k('permission_download'),
  CREATE: k('permission_create'),
  UPDATE: k('permission_update'),
  MOVE: k('permission_move'),
  COPY: k('permission_copy'),
  SHARE: k('permission_share'),
  LOCK: k('permission_lock'),
  UNLOCK: k('permission_unlock'),
  TRASH: k('permission_trash'),
  DELETE: k('permission_delete'),
  SETTING: k('permission_setting'),
} satisfies Record<PermissionType, ReturnType<typeof k>>;
