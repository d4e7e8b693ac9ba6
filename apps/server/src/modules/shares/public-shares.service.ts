import { type PublicShare, type PublicShareList, joinPath, splitPath } from '@bogwan/contracts';
import { AppError, forbidden, notFound, unauthorized } from '../../errors.js';
import type { RateLimiter } from '../../http/rate-limiter.js';
import { verifyPassword } from '../auth/passwords.js';
import type { EventsService } from '../events/events.service.js';
import type { AccessService } from '../files/access.service.js';
import type { FileTreeService } from '../files/file-tree.js';
import type { NodeRow } from '../files/ports.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { RequestsRepo } from '../requests/requests.repo.js';
import type { ReservationsRepo } from '../secure/reservations.repo.js';
import { ticketOf } from '../secure/secure-gate.js';
import type { SecureFolders } from '../secure/secure-folders.js';
import type { DownloadTicket } from '../transfer/download-gate.js';
import type { UserRow, UsersRepo } from '../users/users.repo.js';
import { isShareKey, shareKeyHash, type ShareTokens } from './share-keys.js';
import { previewAllowed } from './shares.presenter.js';
import type { ShareRow, SharesRepo } from './shares.repo.js';
import { linkExpired } from './shares.service.js';

/** The rate limits of public share access, per address and per link. */
export interface ShareLimits {
  /** Unknown keys asked for, per address (guessing). */
  guesses: RateLimiter;
  /** Wrong passwords per link. */
  passwordsPerLink: RateLimiter;
  /** Wrong passwords per address, across links. */
  passwordsPerAddress: RateLimiter;
}

export interface PublicSharesDeps {
  repo: SharesRepo;
  tree: FileTreeService;
  access: AccessService;
  users: UsersRepo;
  groups: GroupsRepo;
  requests: RequestsRepo;
  secure: SecureFolders;
  reservations: ReservationsRepo;
  tokens: ShareTokens;
  limits: ShareLimits;
  events: EventsService;
}

/** Who opens a link: their address, the signed-in account if any, and the token of an unlocked link. */
export interface Visitor {
  ip: string;
  user: UserRow | null;
  shareToken: string | undefined;
}

/** A link that passed every check, with its item and creator. */
interface OpenLink {
  share: ShareRow;
  node: NodeRow;
  creator: UserRow;
}

const invalidLink = () => notFound('share_link_invalid');
const exceeded = () => new AppError(410, 'share_download_exceeded');
const tooMany = () => new AppError(429, 'too_many_requests_message');
/** Every download of a limited link is taken: done, or in flight (given back if it fails). */
const usedUp = (share: ShareRow) => share.download_limit !== null && share.downloads_used >= share.download_limit;

/**
 * What a share link lets a visitor do, checked again at every use: the key exists, its
 * creator is ACTIVE and still holds SHARE on the item, the link has not expired (time,
 * deletion, restore), the scope admits the visitor, the password was given, downloads are
 * left, and bytes from a secure folder leave only under the link's approved share request.
 */
export class PublicSharesService {
  constructor(private readonly deps: PublicSharesDeps) {}

  async info(key: string, visitor: Visitor): Promise<PublicShare> {
    const { share, node, creator } = await this.open(key, visitor);
    if (usedUp(share)) throw exceeded();
    const unlocked = this.unlocked(share, visitor);
    return {
      name: unlocked ? node.name : null,
      folder: unlocked ? node.folder === 1 : null,
      size: unlocked ? (node.folder === 1 ? 0 : node.size) : null,
      expiresAt: share.expires_at,
      passwordRequired: share.password_hash !== null,
      unlocked,
      downloadsLeft: share.download_limit === null ? null : Math.max(0, share.download_limit - share.downloads_used),
      preview: previewAllowed(share),
      creator: creator.name,
    };
  }

  /**
   * Checks a link's password: a token for this link, 401 when wrong, 429 once the link or
   * the address has had too many wrong ones. An unknown key costs the same password hashing
   * as a known one before its 404.
   */
  async unlock(key: string, visitor: Visitor, password: string): Promise<string> {
    const { guesses, passwordsPerLink, passwordsPerAddress } = this.deps.limits;
    if (passwordsPerAddress.blocked(visitor.ip) || guesses.blocked(visitor.ip)) throw tooMany();
    let link: OpenLink;
    try {
      link = await this.open(key, visitor);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 404) await verifyPassword(null, password);
      throw error;
    }
    const { share } = link;
    if (share.password_hash === null) return this.deps.tokens.issue(share.id, '');
    if (passwordsPerLink.blocked(share.id)) throw tooMany();
    if (!(await verifyPassword(share.password_hash, password))) {
      passwordsPerLink.hit(share.id);
      passwordsPerAddress.hit(visitor.ip);
      throw unauthorized('share_password_wrong');
    }
    return this.deps.tokens.issue(share.id, share.password_hash);
  }

  /** The entries of a folder inside a shared folder (`/` is the shared folder). */
  async list(key: string, visitor: Visitor, path: string): Promise<PublicShareList> {
    const link = await this.openUnlocked(key, visitor);
    const folder = await this.inside(link, path);
    if (folder.folder !== 1) throw notFound('folder_not_found');
    await this.deps.access.requireOn(link.creator, folder, 'READ');
    const children = await this.deps.tree.repo.liveChildren(folder.id);
    const readable = await this.deps.access.filter(link.creator, children, 'READ');
    const items = readable
      .map((child) => ({
        name: child.name,
        path: joinPath(path, child.name),
        folder: child.folder === 1,
        size: child.folder === 1 ? 0 : child.size,
        mtime: child.mtime,
        lock: child.lock === 1,
      }))
      .sort((a, b) => Number(b.folder) - Number(a.folder) || a.name.localeCompare(b.name));
    return { path, items };
  }

  /**
   * Admits one download of the item at `path` inside the link: the creator may download it,
   * a secure folder's bytes are covered by the link's approved request, and a download of
   * a limited link is taken before the first byte (410 when none is left).
   */
  async admitDownload(key: string, visitor: Visitor, path: string): Promise<{ node: NodeRow; ticket: DownloadTicket; share: ShareRow; creator: UserRow }> {
    const link = await this.openUnlocked(key, visitor);
    const node = await this.inside(link, path);
    await this.deps.access.requireOn(link.creator, node, 'DOWNLOAD');
    await this.requireSecureCovered(link.share, node);
    const reservation = await this.deps.reservations.reserveShare(link.share.id, new Date().toISOString());
    if (!reservation) throw exceeded();
    return { node, ticket: ticketOf(this.deps.reservations, [reservation]), share: link.share, creator: link.creator };
  }

  /** The file at `path` for an in-browser preview: only links that allow previews (no download limit). */
  async admitPreview(key: string, visitor: Visitor, path: string): Promise<NodeRow> {
    const link = await this.openUnlocked(key, visitor);
    if (!previewAllowed(link.share)) throw forbidden('share_preview_off');
    const node = await this.inside(link, path);
    if (node.folder === 1) throw notFound();
    await this.deps.access.requireOn(link.creator, node, 'PREVIEW');
    await this.requireSecureCovered(link.share, node);
    return node;
  }

  /** Notes a completed download through a link in the activity log. */
  async recordDownload(share: ShareRow, node: NodeRow, visitor: Visitor): Promise<void> {
    await this.deps.events.record({
      service: 'share',
      message: `Downloaded ${node.name} through share link ${share.id}`,
      userId: visitor.user?.id ?? share.created_by,
      ip: visitor.ip,
    });
  }

  private async open(key: string, visitor: Visitor): Promise<OpenLink> {
    const { guesses } = this.deps.limits;
    if (guesses.blocked(visitor.ip)) throw tooMany();
    const share = isShareKey(key) ? await this.deps.repo.findByKeyHash(shareKeyHash(key)) : undefined;
    if (!share) {
      guesses.hit(visitor.ip);
      throw invalidLink();
    }
    const creator = await this.deps.users.findById(share.created_by);
    if (!creator || creator.status !== 'ACTIVE') throw invalidLink();
    const now = new Date().toISOString();
    if (share.expired_at !== null || (share.expires_at !== null && share.expires_at <= now)) throw linkExpired();
    const node = await this.deps.tree.repo.findById(share.node_id);
    if (!node || !(await this.deps.tree.livePaths([node.id])).has(node.id)) {
      await this.deps.repo.expireForNodes([share.node_id], now);
      throw linkExpired();
    }
    // The creator's SHARE is checked at every use: losing it ends the link at once.
    if (!(await this.deps.access.permissionsOn(creator, node)).includes('SHARE')) throw invalidLink();
    await this.admitScope(share, creator, visitor.user);
    return { share, node, creator };
  }

  private async openUnlocked(key: string, visitor: Visitor): Promise<OpenLink> {
    const link = await this.open(key, visitor);
    if (usedUp(link.share)) throw exceeded();
    if (!this.unlocked(link.share, visitor)) throw unauthorized('share_password_required');
    return link;
  }

  private unlocked(share: ShareRow, visitor: Visitor): boolean {
    return share.password_hash === null || this.deps.tokens.verify(visitor.shareToken, share.id, share.password_hash);
  }

  private async admitScope(share: ShareRow, creator: UserRow, viewer: UserRow | null): Promise<void> {
    if (share.scope === 'anyone') return;
    if (!viewer) throw unauthorized('share_login_required');
    if (share.scope === 'login' || viewer.id === creator.id) return;
    if (share.scope === 'specific') {
      const recipients = (await this.deps.repo.recipients([share.id])).get(share.id) ?? [];
      if (recipients.some((r) => r.entity_type === 'user' && r.entity_id === viewer.id)) return;
      const groups = new Set(await this.deps.groups.groupIdsOf(viewer.id));
      if (recipients.some((r) => r.entity_type === 'group' && groups.has(r.entity_id))) return;
    }
    throw forbidden();
  }

  /** The live node at `path` relative to the link's item (`/` is the item itself). */
  private async inside(link: OpenLink, path: string): Promise<NodeRow> {
    const segments = splitPath(path);
    if (segments === null) throw notFound('folder_not_found');
    let node = link.node;
    for (const segment of segments) {
      if (node.folder !== 1) throw notFound('folder_not_found');
      const child = await this.deps.tree.repo.findLiveChild(node.id, segment);
      if (!child) throw notFound('folder_not_found');
      node = child;
    }
    return node;
  }

  /** Bytes under a lock leave through a link only when the link's approved share request covers them. */
  private async requireSecureCovered(share: ShareRow, node: NodeRow): Promise<void> {
    const needed = await this.deps.secure.needed(node);
    if (needed.length === 0) return;
    const request = share.request_id ? await this.deps.requests.findById(share.request_id) : undefined;
    const approved = new Set(
      request && request.status !== 'CANCELED' ? ((await this.deps.requests.items([request.id])).get(request.id) ?? []).map((i) => i.node_id) : [],
    );
    for (const id of needed) if (!(await this.deps.secure.covered(id, approved))) throw forbidden('secure_approval_required');
  }
}
