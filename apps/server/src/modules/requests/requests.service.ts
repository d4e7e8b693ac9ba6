import {
  type ApprovalRequest,
  type CreateRequest,
  type NotificationKey,
  type NotificationParams,
  REQUEST_APPROVAL_DAYS,
  REQUEST_PENDING_DAYS,
  type RequestAction,
  type RequestBox,
  type RequestStatus,
  type SecureStatus,
  createRequestSchema,
} from '@bogwan/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { SYSTEM_ACTOR } from '../audit/audit-context.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { AccessService } from '../files/access.service.js';
import type { Caller } from '../files/files.service.js';
import type { NodeRow } from '../files/ports.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import type { SecureFolders } from '../secure/secure-folders.js';
import type { UserRow, UsersRepo } from '../users/users.repo.js';
import type { WebhookEmitter } from '../webhooks/ports.js';
import { allows, daysAfter, REQUEST_TRANSITIONS } from './request-rules.js';
import { toApprovalRequest } from './requests.presenter.js';
import type { RequestItemRow, RequestRow, RequestsRepo } from './requests.repo.js';
import type { SecurityManagers } from './security-managers.js';

export interface RequestsServiceDeps {
  repo: RequestsRepo;
  users: UsersRepo;
  access: AccessService;
  secure: SecureFolders;
  managers: SecurityManagers;
  notifications: NotificationsService;
  audit: AuditRecorder;
  webhooks: () => WebhookEmitter | undefined;
  log: FastifyBaseLogger;
}

/**
 * Approval requests for secure folders: a user asks to download (or to make a share link
 * of) paths in a locked folder; a security manager approves or rejects; the requester may
 * withdraw. Every change notifies the people concerned, goes to the activity log and to
 * outgoing webhooks.
 */
export class RequestsService {
  constructor(private readonly deps: RequestsServiceDeps) {}

  private get repo() {
    return this.deps.repo;
  }

  async create(caller: Caller, input: CreateRequest): Promise<ApprovalRequest> {
    const body = createRequestSchema.parse(input);
    const permission = body.type === 'download' ? 'DOWNLOAD' : 'SHARE';
    const nodes = new Map<string, { node: NodeRow; path: string }>();
    for (const path of body.paths) {
      const node = await this.deps.access.require(caller.user, path, permission);
      // Download: the bytes touch a lock (in one, or a folder holding one). Share: the link would lie in one.
      const secure = body.type === 'download' ? (await this.deps.secure.needed(node)).length > 0 : (await this.deps.secure.lockAbove(node)) !== undefined;
      if (!secure) throw badRequest('request_not_secure');
      nodes.set(node.id, { node, path });
    }
    const now = new Date();
    const at = now.toISOString();
    const row: RequestRow = {
      id: newId(),
      type: body.type,
      status: 'PENDING',
      requester_id: caller.user.id,
      approver_id: null,
      reason: body.reason,
      decision_reason: null,
      download_limit: body.type === 'download' ? body.downloadLimit : 0,
      downloads_used: 0,
      downloads_done: 0,
      used_at: null,
      created_at: at,
      approved_at: null,
      final_approved_at: null,
      processed_at: null,
      expires_at: daysAfter(now, REQUEST_PENDING_DAYS),
      updated_at: at,
    };
    const items: RequestItemRow[] = [...nodes.values()].map(({ node, path }) => ({ request_id: row.id, node_id: node.id, path }));
    // The request's record commits with it.
    await this.repo.insert(row, items, (trx) => this.deps.audit.record({ action: 'request.create', ...requestRecord(row, items) }, trx));
    const managers = await this.deps.managers.managersOf(await this.deps.managers.governingNodes(items), caller.user.id);
    const what = describe(items);
    for (const manager of managers) {
      await this.notify(manager.id, `note_request_asked_${kindOf(row)}`, { by: caller.user.name, what }, 1);
    }
    this.deps.webhooks()?.emit('request.state_changed', { requestId: row.id, type: row.type, status: row.status, userId: caller.user.id });
    return toApprovalRequest(row, items, new Map([[caller.user.id, caller.user]]), { approve: false, cancel: true });
  }

  /** The caller's requests (`mine`) or those they may decide or decided (`approve`). */
  async list(user: UserRow, box: RequestBox): Promise<ApprovalRequest[]> {
    await this.expireDue();
    const rows = box === 'mine' ? await this.repo.byRequester(user.id) : await this.repo.pendingOrDecidedBy(user.id);
    const items = await this.repo.items(rows.map((r) => r.id));
    const visible: { row: RequestRow; approve: boolean }[] = [];
    for (const row of rows) {
      if (box === 'mine') {
        visible.push({ row, approve: false });
        continue;
      }
      if (row.approver_id === user.id) {
        visible.push({ row, approve: false });
        continue;
      }
      const governing = await this.deps.managers.governingNodes(items.get(row.id) ?? []);
      if (await this.deps.managers.mayDecide(user, governing)) visible.push({ row, approve: true });
    }
    const users = await this.usersOf(visible.map((v) => v.row));
    return visible.map(({ row, approve }) =>
      toApprovalRequest(row, items.get(row.id) ?? [], users, {
        approve: approve && row.status === 'PENDING',
        cancel: row.requester_id === user.id && allows('cancel', row.status as RequestStatus),
      }),
    );
  }

  /** Approves, rejects or withdraws a request, exactly as REQUEST_TRANSITIONS allows. */
  async act(caller: Caller, id: string, action: RequestAction, reason: string | undefined): Promise<ApprovalRequest> {
    await this.expireDue();
    const row = await this.repo.findById(id);
    if (!row) throw notFound();
    const items = (await this.repo.items([row.id])).get(row.id) ?? [];
    const rule = REQUEST_TRANSITIONS[action];
    const governing = await this.deps.managers.governingNodes(items);
    if (rule.actor === 'requester') {
      if (row.requester_id !== caller.user.id) throw forbidden();
    } else {
      if (row.requester_id === caller.user.id) throw forbidden('request_self_approval');
      if (!(await this.deps.managers.mayDecide(caller.user, governing))) throw forbidden();
      if (action === 'reject' && !reason) throw badRequest('request_reject_reason_required');
    }
    if (!allows(action, row.status as RequestStatus)) throw conflict(row.status === 'EXPIRED' ? 'request_expired' : 'request_transition_invalid');

    const now = new Date();
    const at = now.toISOString();
    const patch: Partial<RequestRow> = { status: rule.to, processed_at: at, updated_at: at };
    if (action !== 'cancel') {
      patch.approver_id = caller.user.id;
      patch.decision_reason = reason || null;
    }
    if (action === 'approve') {
      patch.approved_at = at;
      patch.final_approved_at = at;
      patch.expires_at = daysAfter(now, REQUEST_APPROVAL_DAYS);
    }
    const updated = await this.repo.transition(row.id, rule.from, patch, action === 'cancel' ? undefined : at);
    if (!updated) {
      const current = await this.repo.findById(row.id);
      if (current && current.status === 'PENDING' && current.expires_at <= at) {
        await this.expireDue();
        throw conflict('request_expired');
      }
      throw conflict(current?.status === 'EXPIRED' ? 'request_expired' : 'request_transition_invalid');
    }

    const what = describe(items);
    const kind = kindOf(updated);
    if (action === 'approve') {
      await this.notify(updated.requester_id, `note_request_approved_${kind}`, { what, by: caller.user.name });
    } else if (action === 'reject') {
      await this.notify(updated.requester_id, `note_request_rejected_${kind}`, { what, reason: reason ?? '' }, 1);
    } else {
      const told =
        row.status === 'APPROVED' && row.approver_id ? [row.approver_id] : (await this.deps.managers.managersOf(governing, caller.user.id)).map((u) => u.id);
      for (const userId of told) await this.notify(userId, `note_request_canceled_${kind}`, { by: caller.user.name, what });
    }
    await this.changed(caller, updated, items, action === 'approve' ? 'request.approve' : action === 'reject' ? 'request.reject' : 'request.cancel');
    const users = await this.usersOf([updated]);
    return toApprovalRequest(updated, items, users, {
      approve: false,
      cancel: updated.requester_id === caller.user.id && allows('cancel', updated.status as RequestStatus),
    });
  }

  /** Whether a path is secure, and whether the caller may download it on an approval now. */
  async secureStatus(user: UserRow, path: string): Promise<SecureStatus> {
    const node = await this.deps.access.require(user, path, 'READ');
    const secure = (await this.deps.secure.lockAbove(node)) !== undefined;
    const holdsSecure = !secure && (await this.deps.secure.locksBelow(node)).length > 0;
    let downloadApproved = false;
    if (secure || holdsSecure) {
      const approved = await this.approvedNodes(user.id, 'download');
      const needed = await this.deps.secure.needed(node);
      downloadApproved = true;
      for (const id of needed) if (!(await this.deps.secure.covered(id, approved))) downloadApproved = false;
    }
    return { secure, holdsSecure, downloadApproved };
  }

  /** The nodes the user's valid approvals of a type cover (each approved item's node). */
  async approvedNodes(userId: string, type: 'download' | 'share'): Promise<Set<string>> {
    const grants = await this.repo.activeGrants(userId, type, new Date().toISOString());
    const items = await this.repo.items(grants.map((g) => g.id));
    return new Set([...items.values()].flat().map((item) => item.node_id));
  }

  /** Expires what time has ended; tells each requester. Run before reads and hourly. */
  async expireDue(): Promise<void> {
    const expired = await this.repo.expireDue(new Date().toISOString());
    if (expired.length === 0) return;
    const items = await this.repo.items(expired.map((r) => r.id));
    for (const row of expired) {
      await this.notify(row.requester_id, `note_request_expired_${kindOf(row)}`, { what: describe(items.get(row.id) ?? []) });
      // The server expires it (whichever request happened to read first): no client of its own.
      await this.deps.audit.record({
        action: 'request.expire',
        actor: SYSTEM_ACTOR,
        ip: null,
        userAgent: null,
        ...requestRecord(row, items.get(row.id) ?? []),
      });
      this.deps.webhooks()?.emit('request.state_changed', { requestId: row.id, type: row.type, status: row.status });
    }
  }

  private async usersOf(rows: RequestRow[]): Promise<Map<string, UserRow>> {
    const ids = new Set(rows.flatMap((r) => [r.requester_id, ...(r.approver_id ? [r.approver_id] : [])]));
    return new Map((await this.deps.users.findByIds([...ids])).map((u) => [u.id, u]));
  }

  private async notify(userId: string, key: NotificationKey, params: NotificationParams, level = 0): Promise<void> {
    try {
      await this.deps.notifications.notify(userId, key, params, level);
    } catch (error) {
      this.deps.log.error({ err: error }, 'request notification failed');
    }
  }

  private async changed(
    caller: Caller,
    row: RequestRow,
    items: RequestItemRow[],
    action: 'request.create' | 'request.approve' | 'request.reject' | 'request.cancel',
  ): Promise<void> {
    await this.deps.audit.record({ action, ...requestRecord(row, items) });
    this.deps.webhooks()?.emit('request.state_changed', { requestId: row.id, type: row.type, status: row.status, userId: caller.user.id });
  }
}

/** "download request for /A/f.txt (+2)", markup-safe. */
/** The request's items as a notification names them, in no language: the first path, `(+n)` for more. */
function describe(items: RequestItemRow[]): string {
  const first = items[0]?.path ?? '';
  return items.length > 1 ? `${first} (+${items.length - 1})` : first;
}

/** The kind of request in its notification keys. */
const kindOf = (row: RequestRow): 'download' | 'share' => (row.type === 'share' ? 'share' : 'download');

/** A request's audit target (its first item's path, for path searches) and params (type, every path, requester, reason). */
function requestRecord(row: RequestRow, items: RequestItemRow[]) {
  return {
    target: { kind: 'request' as const, id: row.id, path: items[0]?.path ?? null, label: row.type },
    params: {
      type: row.type,
      status: row.status,
      paths: items.map((i) => i.path).join('\n'),
      items: items.length,
      requesterId: row.requester_id,
      ...(row.decision_reason ? { decisionReason: row.decision_reason } : {}),
    },
  };
}
