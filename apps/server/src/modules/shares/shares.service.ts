import {
  type CreateShareRequest,
  type ShareLink,
  type ShareList,
  type UpdateShareRequest,
  createShareRequestSchema,
  updateShareRequestSchema,
} from '@bogwan/contracts';
import { AppError, badRequest, forbidden, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { hashPassword } from '../auth/passwords.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import { nodeTarget } from '../files/file-audit.js';
import { ADMIN_LEVEL, type AccessService } from '../files/access.service.js';
import type { FileTreeService } from '../files/file-tree.js';
import type { Caller } from '../files/files.service.js';
import type { NodeRow } from '../files/ports.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import { approvalValid } from '../requests/request-rules.js';
import type { RequestsRepo } from '../requests/requests.repo.js';
import type { SecureFolders } from '../secure/secure-folders.js';
import type { UserRow, UsersRepo } from '../users/users.repo.js';
import type { WebhookEmitter } from '../webhooks/ports.js';
import { newShareKey, shareKeyHash } from './share-keys.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import { type ShareView, toShareLink, toSharedItem } from './shares.presenter.js';
import type { InTransaction, ShareRecipientRow, ShareRow, SharesRepo } from './shares.repo.js';

export interface SharesServiceDeps {
  repo: SharesRepo;
  tree: FileTreeService;
  access: AccessService;
  users: UsersRepo;
  groups: GroupsRepo;
  requests: RequestsRepo;
  secure: SecureFolders;
  audit: AuditRecorder;
  webhooks: () => WebhookEmitter | undefined;
  publicUrl: string | undefined;
  /** Tells the named users of a `specific` link that something was shared with them. */
  notifications: Pick<NotificationsService, 'notify'>;
}

type Rules = ReturnType<typeof updateShareRequestSchema.parse>;

export const linkExpired = () => new AppError(410, 'share_link_expired');
const approvalRequired = () => forbidden('secure_share_approval_required');

/**
 * Share links as their creators manage them: create (SHARE on the path; in a secure
 * folder also an approved share request, spent on the link in the transaction that
 * inserts it), edit (on a secure path only while that approval stands), revoke, list; and the
 * links others made for the caller. Links follow their item by id across moves.
 */
export class SharesService {
  constructor(private readonly deps: SharesServiceDeps) {}

  private get repo() {
    return this.deps.repo;
  }

  async create(caller: Caller, input: CreateShareRequest): Promise<ShareLink> {
    const body = createShareRequestSchema.parse(input);
    const node = await this.deps.access.require(caller.user, body.path, 'SHARE');
    const now = new Date().toISOString();
    const rules = await this.checkRules(body, now);
    const secure = (await this.deps.secure.lockAbove(node)) !== undefined;
    const grants = secure ? await this.shareApprovals(caller.user, node, now) : [];
    if (secure && grants.length === 0) {
      await this.deps.audit.record({
        action: 'share.create',
        outcome: 'refused',
        reason: 'secure_share_approval_required',
        target: nodeTarget(node, body.path),
      });
      throw approvalRequired();
    }
    const id = newId();
    const key = newShareKey();
    const row: ShareRow = {
      id,
      key,
      key_hash: shareKeyHash(key),
      node_id: node.id,
      created_by: caller.user.id,
      scope: rules.scope,
      password_hash: rules.password ? await hashPassword(rules.password) : null,
      expires_at: rules.expiresAt ?? null,
      download_limit: rules.downloadLimit ?? null,
      downloads_used: 0,
      downloads_done: 0,
      preview: rules.preview ? 1 : 0,
      request_id: null,
      expired_at: null,
      created_at: now,
      updated_at: now,
    };
    const recipients = recipientRows(id, rules);
    // The record commits with the link.
    const recorded: InTransaction = (trx) =>
      this.deps.audit.record({ action: 'share.create', target: nodeTarget(node, body.path), params: shareParams(id, row) }, trx);
    if (secure) {
      // The approval is spent in the transaction that inserts the link: both or neither.
      row.request_id = await this.repo.insertSpending(
        row,
        recipients,
        async (trx) => {
          for (const grant of grants) if (await this.deps.requests.markUsed(grant, now, trx)) return grant;
          return null;
        },
        recorded,
      );
      if (row.request_id === null) throw approvalRequired();
    } else {
      await this.repo.insert(row, recipients, recorded);
    }
    this.deps.webhooks()?.emit('share.created', { shareId: id, path: body.path, scope: rules.scope, userId: caller.user.id });
    await this.tellRecipients(caller, node.name, recipients, new Set());
    return (await this.present(caller.user, [{ share: row, node, path: body.path, recipients }]))[0]!;
  }

  async update(caller: Caller, id: string, input: UpdateShareRequest): Promise<ShareLink> {
    const body = updateShareRequestSchema.parse(input);
    const share = await this.repo.findById(id);
    if (!share || share.created_by !== caller.user.id) throw notFound('share_link_invalid');
    const node = await this.deps.tree.repo.findById(share.node_id);
    const path = node ? (await this.deps.tree.livePaths([node.id])).get(node.id) : undefined;
    if (!node || path === undefined || share.expired_at !== null) throw linkExpired();
    await this.deps.access.require(caller.user, path, 'SHARE');
    const now = new Date().toISOString();
    if (await this.deps.secure.lockAbove(node)) await this.requireOwnApproval(share, node, now);
    const rules = await this.checkRules(body, now);
    const patch: Partial<ShareRow> = {
      scope: rules.scope,
      expires_at: rules.expiresAt === undefined ? share.expires_at : rules.expiresAt,
      download_limit: rules.downloadLimit === undefined ? share.download_limit : rules.downloadLimit,
      preview: rules.preview ? 1 : 0,
      updated_at: now,
    };
    if (rules.password !== undefined) patch.password_hash = rules.password === null ? null : await hashPassword(rules.password);
    const recipients = recipientRows(id, rules);
    const before = new Set(((await this.repo.recipients([id])).get(id) ?? []).filter((r) => r.entity_type === 'user').map((r) => r.entity_id));
    await this.repo.update(id, patch, recipients, (trx) =>
      this.deps.audit.record({ action: 'share.update', target: nodeTarget(node, path), params: shareParams(id, { ...share, ...patch }) }, trx),
    );
    await this.tellRecipients(caller, node.name, recipients, before);
    return (await this.present(caller.user, [{ share: { ...share, ...patch }, node, path, recipients }]))[0]!;
  }

  /** Notifies each named user of a link who was not named before (never the caller); a failure loses no link. */
  private async tellRecipients(caller: Caller, name: string, recipients: ShareRecipientRow[], before: Set<string>): Promise<void> {
    const users = recipients.filter((r) => r.entity_type === 'user' && !before.has(r.entity_id) && r.entity_id !== caller.user.id).map((r) => r.entity_id);
    for (const userId of users) {
      try {
        await this.deps.notifications.notify(userId, 'note_share_received', { by: caller.user.name, name });
      } catch {
        // The link stands; only the notice is missing.
      }
    }
  }

  /** Revokes a link: its creator, or an administrator. The key stops working at once. */
  async revoke(caller: Caller, id: string): Promise<void> {
    const share = await this.repo.findById(id);
    if (!share || (share.created_by !== caller.user.id && caller.user.role_level < ADMIN_LEVEL)) throw notFound('share_link_invalid');
    const node = await this.deps.tree.repo.findById(share.node_id);
    const path = node ? ((await this.deps.tree.anyPaths([node.id])).get(node.id) ?? node.name) : null;
    const target = { kind: 'node' as const, id: share.node_id, path, label: node?.name ?? null };
    await this.repo.delete(id, (trx) => this.deps.audit.record({ action: 'share.revoke', target, params: { shareId: id } }, trx));
  }

  async list(user: UserRow): Promise<ShareList> {
    const mine = await this.repo.byCreator(user.id);
    const recipients = await this.repo.recipients(mine.map((s) => s.id));
    const nodes = await this.nodesOf(mine);
    const paths = await this.deps.tree.livePaths([...nodes.keys()]);
    const views = mine.map((share) => ({ share, node: nodes.get(share.node_id), path: paths.get(share.node_id), recipients: recipients.get(share.id) ?? [] }));

    const now = new Date().toISOString();
    const groupIds = await this.deps.groups.groupIdsOf(user.id);
    const offered = (await this.repo.sharedWith(user.id, groupIds)).filter((s) => s.expires_at === null || s.expires_at > now);
    const offeredNodes = await this.nodesOf(offered);
    const offeredPaths = await this.deps.tree.livePaths([...offeredNodes.keys()]);
    const creators = new Map((await this.deps.users.findByIds([...new Set(offered.map((s) => s.created_by))])).map((u) => [u.id, u]));
    const sharedWithMe = [];
    for (const share of offered) {
      const node = offeredNodes.get(share.node_id);
      const path = offeredPaths.get(share.node_id);
      const creator = creators.get(share.created_by);
      if (!node || path === undefined || !creator || creator.status !== 'ACTIVE') continue;
      // A link stops working when its creator loses SHARE: it is not offered either.
      if (!(await this.deps.access.permissionsOn(creator, node)).includes('SHARE')) continue;
      sharedWithMe.push(toSharedItem(share, node, creator, this.deps.publicUrl));
    }
    return { mine: await this.present(user, views), sharedWithMe };
  }

  /** Expires for good the links of these items and of everything under them (deleted or restored). */
  async expireUnder(nodeIds: string[]): Promise<number> {
    const ids = new Set<string>();
    for (const id of nodeIds) for (const row of await this.deps.tree.repo.subtree(id, false)) ids.add(row.id);
    return this.repo.expireForNodes([...ids], new Date().toISOString());
  }

  /** Expires for good the links of exactly these items (files a snapshot restore put back). */
  expireOn(nodeIds: string[]): Promise<number> {
    return this.repo.expireForNodes(nodeIds, new Date().toISOString());
  }

  private async checkRules(body: Rules, now: string): Promise<Rules> {
    if (body.expiresAt && new Date(body.expiresAt).toISOString() <= now) throw badRequest('share_expiry_past');
    const expiresAt = body.expiresAt ? new Date(body.expiresAt).toISOString() : body.expiresAt;
    if (body.scope !== 'specific') return { ...body, expiresAt, users: [], groups: [] };
    const users = [...new Set(body.users)];
    const groups = [...new Set(body.groups)];
    if (users.length + groups.length === 0) throw badRequest('share_recipients_required');
    if ((await this.deps.users.findByIds(users)).length !== users.length) throw badRequest('user_not_found');
    if ((await this.deps.groups.findByIds(groups)).length !== groups.length) throw badRequest('group_not_found');
    return { ...body, expiresAt, users, groups };
  }

  /** The ids of the user's unused, still valid approved share requests covering the node, soonest to expire first. */
  private async shareApprovals(user: UserRow, node: NodeRow, now: string): Promise<string[]> {
    const grants = await this.deps.requests.activeGrants(user.id, 'share', now);
    const items = await this.deps.requests.items(grants.map((g) => g.id));
    const chain = new Set(await this.deps.secure.chainIds(node.id));
    return grants.filter((grant) => (items.get(grant.id) ?? []).some((item) => chain.has(item.node_id))).map((grant) => grant.id);
  }

  /**
   * A link on a secure path is changed only while the approval it was made under still
   * stands (APPROVED, unexpired) and covers its item; 403 otherwise, as on creation.
   */
  private async requireOwnApproval(share: ShareRow, node: NodeRow, now: string): Promise<void> {
    const request = share.request_id ? await this.deps.requests.findById(share.request_id) : undefined;
    if (!request || !approvalValid(request, now)) throw approvalRequired();
    const approved = new Set(((await this.deps.requests.items([request.id])).get(request.id) ?? []).map((item) => item.node_id));
    if (!(await this.deps.secure.covered(node.id, approved))) throw approvalRequired();
  }

  private async nodesOf(shares: ShareRow[]): Promise<Map<string, NodeRow>> {
    const nodes = new Map<string, NodeRow>();
    for (const id of new Set(shares.map((s) => s.node_id))) {
      const node = await this.deps.tree.repo.findById(id);
      if (node) nodes.set(id, node);
    }
    return nodes;
  }

  private async present(viewer: UserRow, views: ShareView[]): Promise<ShareLink[]> {
    const userIds = new Set(views.flatMap((v) => v.recipients.filter((r) => r.entity_type === 'user').map((r) => r.entity_id)));
    const groupIds = new Set(views.flatMap((v) => v.recipients.filter((r) => r.entity_type === 'group').map((r) => r.entity_id)));
    const users = new Map((await this.deps.users.findByIds([...userIds])).map((u) => [u.id, u]));
    const groups = new Map((await this.deps.groups.findByIds([...groupIds])).map((g) => [g.id, g]));
    users.set(viewer.id, viewer);
    const now = new Date().toISOString();
    return views.map((view) => toShareLink(view, this.deps.publicUrl, users, groups, now));
  }
}

function recipientRows(shareId: string, rules: Rules): ShareRecipientRow[] {
  if (rules.scope !== 'specific') return [];
  return [
    ...rules.users.map((entity_id) => ({ share_id: shareId, entity_type: 'user' as const, entity_id })),
    ...rules.groups.map((entity_id) => ({ share_id: shareId, entity_type: 'group' as const, entity_id })),
  ];
}

/** What a share record keeps of a link: its id and rules (never its key or password). */
function shareParams(id: string, row: Pick<ShareRow, 'scope' | 'expires_at' | 'download_limit' | 'preview' | 'password_hash'>) {
  return {
    shareId: id,
    scope: row.scope,
    expiresAt: row.expires_at,
    downloadLimit: row.download_limit,
    preview: row.preview === 1,
    password: row.password_hash !== null,
  };
}
