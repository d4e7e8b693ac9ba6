import type { ShareLink, ShareScope, ShareState, SharedItem } from '@bogwan/contracts';
import type { NodeRow } from '../files/ports.js';
import type { GroupRow } from '../groups/groups.repo.js';
import type { UserRow } from '../users/users.repo.js';
import type { ShareRecipientRow, ShareRow } from './shares.repo.js';

/** A link's address: absolute when the server knows its public URL, else from the site root. */
export function shareUrl(publicUrl: string | undefined, key: string): string {
  return `${publicUrl ?? ''}/share/${key}`;
}

/** Whether visitors may preview: the link allows it and has no download limit (a preview is not counted). */
export const previewAllowed = (share: ShareRow) => share.preview === 1 && share.download_limit === null;

/** Where a link stands now: expired (time, deletion, restore), its downloads used up, or active. */
export function shareState(share: ShareRow, live: boolean, now: string): ShareState {
  if (!live || share.expired_at !== null || (share.expires_at !== null && share.expires_at <= now)) return 'expired';
  if (share.download_limit !== null && share.downloads_done >= share.download_limit) return 'exceeded';
  return 'active';
}

export interface ShareView {
  share: ShareRow;
  node: NodeRow | undefined;
  path: string | undefined;
  recipients: ShareRecipientRow[];
}

/** A link as its creator sees it; never the password hash. */
export function toShareLink(
  view: ShareView,
  publicUrl: string | undefined,
  users: Map<string, UserRow>,
  groups: Map<string, GroupRow>,
  now: string,
): ShareLink {
  const { share, node, path } = view;
  const recipients = (type: 'user' | 'group') => view.recipients.filter((r) => r.entity_type === type).map((r) => r.entity_id);
  return {
    _id: share.id,
    key: share.key,
    url: shareUrl(publicUrl, share.key),
    path: path ?? null,
    name: node?.name ?? '',
    folder: node?.folder === 1,
    scope: share.scope as ShareScope,
    users: recipients('user').flatMap((id) => {
      const user = users.get(id);
      return user ? [{ _id: user.id, name: user.name, email: user.email }] : [];
    }),
    groups: recipients('group').flatMap((id) => {
      const group = groups.get(id);
      return group ? [{ _id: group.id, name: group.name }] : [];
    }),
    expiresAt: share.expires_at,
    hasPassword: share.password_hash !== null,
    downloadLimit: share.download_limit,
    downloadCount: share.downloads_done,
    downloadsLeft: share.download_limit === null ? null : Math.max(0, share.download_limit - share.downloads_used),
    preview: previewAllowed(share),
    state: shareState(share, path !== undefined, now),
    createdAt: share.created_at,
    updatedAt: share.updated_at,
  };
}

/** A link made for the caller, as "shared with me" lists it. */
export function toSharedItem(share: ShareRow, node: NodeRow, creator: UserRow, publicUrl: string | undefined): SharedItem {
  return {
    _id: share.id,
    key: share.key,
    url: shareUrl(publicUrl, share.key),
    name: node.name,
    folder: node.folder === 1,
    size: node.folder === 1 ? 0 : node.size,
    expiresAt: share.expires_at,
    hasPassword: share.password_hash !== null,
    creator: { _id: creator.id, name: creator.name, email: creator.email },
    createdAt: share.created_at,
  };
}
