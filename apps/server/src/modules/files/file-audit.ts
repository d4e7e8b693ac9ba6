import type { AuditAction, PermissionType } from '@bogwan/contracts';
import type { AuditTarget } from '../audit/audit.recorder.js';
import type { NodeRow } from './ports.js';

/** The audit target of a file or folder: its id, its path (the recorder stores it in NFC) and its name. */
export function nodeTarget(node: Pick<NodeRow, 'id' | 'name'> | null, path: string): AuditTarget {
  return { kind: 'node', id: node?.id ?? null, path, label: node?.name ?? null };
}

/**
 * The action a refused permission stood in the way of, for the refusal's audit record.
 * READ guards browsing (listing, the tree, search results): a refused READ is recorded as a
 * refused view, with the permission in the params.
 */
const ACTION_OF_PERMISSION: Record<PermissionType, AuditAction> = {
  READ: 'file.view',
  PREVIEW: 'file.view',
  DOWNLOAD: 'file.download',
  CREATE: 'file.upload',
  UPDATE: 'file.rename',
  MOVE: 'file.move',
  COPY: 'file.copy',
  TRASH: 'file.trash',
  DELETE: 'file.purge',
  LOCK: 'file.lock',
  UNLOCK: 'file.lock',
  SHARE: 'share.create',
  SETTING: 'permission.change',
};

export function actionRefusedBy(permission: PermissionType): AuditAction {
  return ACTION_OF_PERMISSION[permission] ?? 'file.view';
}
