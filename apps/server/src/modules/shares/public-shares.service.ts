import { type PublicShare, type PublicShareList, joinPath, splitPath } from '@bogwan/contracts';
import { AppError, forbidden, notFound, unauthorized } from '../../errors.js';
import { verifyPassword } from '../auth/passwords.js';
import { type AuditActor, auditContext } from '../audit/audit-context.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import { nodeTarget } from '../files/file-audit.js';
import type { AccessService } from '../files/access.service.js';
import type { FileTreeService } from '../files/file-tree.js';
import type { NodeRow } from '../files/ports.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { RateLimit, TakenHit } from '../limits/rate-limit.js';
import type { RequestsRepo } from '../requests/requests.repo.js';
import type { ReservationsRepo } from '../secure/reservations.repo.js';
import { approvalValid } from '../requests/request-rules.js';
import { ticketOf } from '../secure/secure-gate.js';
import type { SecureFolders } from '../secure/secure-folders.js';
import type { SessionsRepo } from '../sessions/sessions.repo.js';
import type { DownloadTicket } from '../transfer/download-gate.js';
import type { UserRow, UsersRepo } from '../users/users.repo.js';
import type { ShareDownloadTickets } from './download-tickets.js';
import { isShareKey, shareKeyHash, type ShareTokens } from './share-keys.js';
import { previewAllowed } from './shares.presenter.js';
import type { ShareRow, SharesRepo } from './shares.repo.js';
import { linkExpired } from './shares.service.js';

/** The rate limits of public share access, per address and per link, counted in the database (shared by every process). */
export interface ShareLimits {
  /** Unknown keys asked for, per address (guessing). */
  guesses: RateLimit;
  /** Password attempts per link: taken before the check, given back when the password was right. */
  passwordsPerLink: RateLimit;
  /** Password attempts per address, across links, counted the same way. */
  passwordsPerAddress: RateLimit;
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
  downloadTickets: ShareDownloadTickets;
  sessions: SessionsRepo;
  limits: ShareLimits;
  audit: AuditRecorder;
}

/** Who opens a link: their address, the signed-in account (and session) if any, and the token of an unlocked link. */
export interface Visitor {
  ip: string;
  user: UserRow | null;
  sessionId: string | null;
  shareToken: string | undefined;
}

/** One admitted download: the item, its ticket to settle when the answer ends, the link and its creator. */
export interface AdmittedDownload {
  node: NodeRow;
  ticket: DownloadTicket;
  share: ShareRow;
  creator: UserRow;
  /** Locked folders inside the item that its zip leaves out (the link's approval does not cover them). */
  withheld: string[];
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
   * the address has had too many wrong ones. Each attempt is counted before the password is
   * hashed and given back when it was right, so parallel attempts cannot all be checked.
   * An unknown key costs the same password hashing as a known one before its 404.
   */
  async unlock(key: string, visitor: Visitor, password: string): Promise<string> {
    const { guesses, passwordsPerAddress } = this.deps.limits;
    if ((await passwordsPerAddress.blocked(visitor.ip)) || (await guesses.blocked(visitor.ip))) throw tooMany();
    let link: OpenLink;
    try {
      link = await this.open(key, visitor);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 404) await verifyPassword(null, password);
      throw error;
    }
    const { share } = link;
    if (share.password_hash === null) return this.deps.tokens.issue(share.id, '');
    const taken = await this.takeAttempt(share.id, visitor.ip);
    const right = await verifyPassword(share.password_hash, password);
    if (right) await Promise.all(taken.map((hit) => hit.limit.giveBack(hit.hit)));
    if (!right) {
      await this.deps.audit.record({
        action: 'share.unlock_failed',
        outcome: 'refused',
        reason: 'share_password_wrong',
        target: { kind: 'share', id: share.id },
      });
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
  async admitDownload(key: string, visitor: Visitor, path: string): Promise<AdmittedDownload> {
    const link = await this.openUnlocked(key, visitor);
    return this.admit(link, await this.inside(link, path));
  }

  /**
   * A single-use ticket (one minute) for one download of the item at `path`, so the browser
   * can stream it to disk from a URL that carries nothing else. Every check of a download
   * runs now (so the page can say why not) and again when the ticket is used; no download
   * is taken until then.
   */
  async downloadTicket(key: string, visitor: Visitor, path: string): Promise<string> {
    const link = await this.openUnlocked(key, visitor);
    const node = await this.inside(link, path);
    await this.deps.access.requireOn(link.creator, node, 'DOWNLOAD');
    await this.secureWithheld(link.share, node);
    const claims = { shareId: link.share.id, nodeId: node.id, path, userId: visitor.user?.id ?? null, sessionId: visitor.user ? visitor.sessionId : null };
    return this.deps.downloadTickets.issue(claims, link.share.password_hash ?? '');
  }

  /**
   * Admits the download a ticket stands for, like `admitDownload` with the ticket's visitor:
   * 401 for a forged, expired or used ticket (or one of a revoked link or a changed
   * password), and every check of the link again. The item must still be the one the ticket names.
   */
  async admitTicket(ticket: string, ip: string): Promise<{ admitted: AdmittedDownload; visitor: Visitor }> {
    const claims = this.deps.downloadTickets.read(ticket);
    const share = claims ? await this.deps.repo.findById(claims.shareId) : undefined;
    if (!claims || !share || !(await this.deps.downloadTickets.spend(ticket, share.password_hash ?? ''))) throw unauthorized();
    const user = claims.userId && claims.sessionId ? await this.deps.sessions.findUserOfOpenSession(claims.userId, claims.sessionId) : undefined;
    const visitor: Visitor = { ip, user: user?.status === 'ACTIVE' ? user : null, sessionId: claims.sessionId, shareToken: undefined };
    // The ticket's signature over the password hash stands for the share token.
    const link = await this.openShare(share, visitor);
    if (usedUp(share)) throw exceeded();
    const node = await this.inside(link, claims.path);
    if (node.id !== claims.nodeId) throw unauthorized();
    return { admitted: await this.admit(link, node), visitor };
  }

  /** The file at `path` for an in-browser preview: only links that allow previews (no download limit). */
  async admitPreview(key: string, visitor: Visitor, path: string): Promise<NodeRow> {
    const link = await this.openUnlocked(key, visitor);
    if (!previewAllowed(link.share)) throw forbidden('share_preview_off');
    const node = await this.inside(link, path);
    if (node.folder === 1) throw notFound();
    await this.deps.access.requireOn(link.creator, node, 'PREVIEW');
    await this.secureWithheld(link.share, node);
    await this.recordTransfer(link.share, node, 'file.view');
    return node;
  }

  /**
   * Records bytes leaving through a link before the first one is sent (`share.download`, or
   * `file.view` for a preview); the actor is the link (opening it named it). Without a record
   * nothing is sent.
   */
  async recordTransfer(share: ShareRow, node: NodeRow, action: 'share.download' | 'file.view'): Promise<void> {
    const path = (await this.deps.tree.livePaths([node.id])).get(node.id) ?? node.name;
    await this.deps.audit.recordOrThrow({
      action,
      target: nodeTarget(node, path),
      params: { shareId: share.id, ...(node.folder === 1 ? {} : { size: node.size }) },
    });
  }

  /**
   * The creator may download the item, a secure item's bytes are covered (locked folders
   * inside a folder that are not covered are withheld from its zip), and one download is
   * taken (410 when none is left).
   */
  private async admit(link: OpenLink, node: NodeRow): Promise<AdmittedDownload> {
    await this.deps.access.requireOn(link.creator, node, 'DOWNLOAD');
    const withheld = await this.secureWithheld(link.share, node);
    const reservation = await this.deps.reservations.reserveShare(link.share.id, new Date().toISOString());
    if (!reservation) throw exceeded();
    return { node, ticket: ticketOf(this.deps.reservations, [reservation]), share: link.share, creator: link.creator, withheld };
  }

  /**
   * Takes one password attempt of the address and of the link before the password is
   * checked (each one atomic statement); 429, taking nothing, when either is used up.
   * Answers the hits, to give back when the password was right.
   */
  private async takeAttempt(shareId: string, ip: string): Promise<{ limit: RateLimit; hit: TakenHit }[]> {
    const { passwordsPerLink, passwordsPerAddress } = this.deps.limits;
    const byAddress = await passwordsPerAddress.take(ip);
    if (!byAddress) throw tooMany();
    const byLink = await passwordsPerLink.take(shareId);
    if (!byLink) {
      await passwordsPerAddress.giveBack(byAddress);
      throw tooMany();
    }
    return [
      { limit: passwordsPerAddress, hit: byAddress },
      { limit: passwordsPerLink, hit: byLink },
    ];
  }

  /**
   * The link of a key. Unknown keys count against the address; an answer, known key or not,
   * is given only while the address is under its limit after the lookup, so parallel
   * guesses learn nothing past it. (Counting before the lookup would also count, and refuse,
   * parallel uses of a real link.)
   */
  private async open(key: string, visitor: Visitor): Promise<OpenLink> {
    const { guesses } = this.deps.limits;
    if (await guesses.blocked(visitor.ip)) throw tooMany();
    const share = isShareKey(key) ? await this.deps.repo.findByKeyHash(shareKeyHash(key)) : undefined;
    if (!share) {
      if (!(await guesses.hit(visitor.ip))) throw tooMany();
      throw invalidLink();
    }
    if (await guesses.blocked(visitor.ip)) throw tooMany();
    return this.openShare(share, visitor);
  }

  private async openShare(share: ShareRow, visitor: Visitor): Promise<OpenLink> {
    // From here on the request acts as the link: its records (and refusals) name it.
    auditContext.setActor(shareLinkActor(share, visitor));
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

  /**
   * Bytes under a lock leave through a link only while the link's share request is still
   * APPROVED and unexpired and covers them: once it expires or is withdrawn they stop. An
   * item that is itself secure and not covered is refused (403 `secure_approval_required`);
   * for a folder that only holds locked folders, answers those not covered: a zip of the
   * folder leaves them out, since a visitor has no way to ask for their approval.
   */
  private async secureWithheld(share: ShareRow, node: NodeRow): Promise<string[]> {
    const needed = await this.deps.secure.needed(node);
    if (needed.length === 0) return [];
    const request = share.request_id ? await this.deps.requests.findById(share.request_id) : undefined;
    const valid = request !== undefined && approvalValid(request, new Date().toISOString());
    const approved = new Set(valid ? ((await this.deps.requests.items([request.id])).get(request.id) ?? []).map((i) => i.node_id) : []);
    const uncovered: string[] = [];
    for (const id of needed) if (!(await this.deps.secure.covered(id, approved))) uncovered.push(id);
    if (uncovered.includes(node.id)) throw forbidden('secure_approval_required');
    return uncovered;
  }
}

/** The audit actor of a share link's visitor: the link, and the signed-in account if any. */
function shareLinkActor(share: ShareRow, visitor: Visitor): AuditActor {
  return { kind: 'share_link', id: share.id, accountId: visitor.user?.id ?? null, label: visitor.user ? `${visitor.user.name} <${visitor.user.email}>` : null };
}
