import {
  BULK_REGISTER_MAX_ROWS,
  ROLE_LEVEL,
  type Account,
  type BulkPreview,
  type BulkRow,
  type CreateAccountRequest,
  type DeleteAccountReason,
  type Profile,
  type Role,
  type UpdateAccountRequest,
  type User,
} from '@bogwan/contracts';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../errors.js';
import type { LoginGuard } from '../auth/login-guard.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { isUniqueViolation } from '../auth/setup.repo.js';
import type { AuditAction, AuditParams } from '@bogwan/contracts';
import { type AuditActor, accountActor } from '../audit/audit-context.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import { ADMIN_LEVEL } from '../files/access.service.js';
import type { Caller } from '../files/files.service.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { GroupsService } from '../groups/groups.service.js';
import type { LicenceService } from '../licence/licence.service.js';
import type { PermissionsRepo } from '../permissions/permissions.repo.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import { mayChangeAccount, mayDeleteAccount } from './account-rules.js';
import type { Avatars } from './avatars.js';
import { classifyRows, rowsFromSheet } from './bulk-register.js';
import { readSheet } from './excel-reader.js';
import { newLocalUser } from './new-user.js';
import type { InAccountTransaction, UserRow, UsersRepo } from './users.repo.js';
import { toUserResponse } from './users.presenter.js';

/** The transaction an account change runs in (its audit record commits with it). */
type Transaction = Parameters<InAccountTransaction>[0];

const ROLE_ORDER: Record<string, number> = { MASTER: 0, ADMIN: 1, USER: 2 };
const noSeat = () => forbidden('license_seat_limit_reached');
const lastMaster = () => conflict('last_master_warning');
const collator = new Intl.Collator('ko');

/** Sorted as the spec's account list: MASTER, ADMIN, USER, then by name in Korean order. */
export function byRoleThenName(a: UserRow, b: UserRow): number {
  return (ROLE_ORDER[a.role] ?? 9) - (ROLE_ORDER[b.role] ?? 9) || collator.compare(a.name, b.name) || a.email.localeCompare(b.email);
}

export interface AccountsDeps {
  users: UsersRepo;
  groupsRepo: GroupsRepo;
  groups: GroupsService;
  sessions: SessionsService;
  licence: LicenceService;
  avatars: Avatars;
  audit: AuditRecorder;
  permissions: PermissionsRepo;
  /** Password checks of the account's own changes count like sign-ins. */
  guard: LoginGuard;
  initialPassword: string;
}

/** Accounts: the administrators' list and its rules, profiles, avatars, deletion, bulk registration. */
export class AccountsService {
  constructor(private readonly deps: AccountsDeps) {}

  get initialPassword(): string {
    return this.deps.initialPassword;
  }

  async list(id?: string): Promise<Account[]> {
    const rows = id ? [await this.deps.users.findById(id)].filter((u): u is UserRow => !!u) : await this.deps.users.list();
    rows.sort(byRoleThenName);
    const groups = await this.deps.groupsRepo.groupsOfUsers(id ? [id] : undefined);
    return rows.map((row) => this.toAccount(row, groups.get(row.id) ?? []));
  }

  async profiles(query: { _id?: string; email?: string; keyword?: string }): Promise<Profile[]> {
    let rows: UserRow[];
    if (query._id) rows = [await this.deps.users.findById(query._id)].filter((u): u is UserRow => !!u);
    else if (query.email) rows = [await this.deps.users.findByEmail(query.email.trim().toLowerCase())].filter((u): u is UserRow => !!u);
    else {
      const keyword = query.keyword?.trim().toLowerCase() ?? '';
      rows = (await this.deps.users.list()).filter(
        (u) => u.status === 'ACTIVE' && (!keyword || u.name.toLowerCase().includes(keyword) || u.email.includes(keyword)),
      );
      rows.sort(byRoleThenName);
    }
    const groups = await this.deps.groupsRepo.groupsOfUsers(rows.map((r) => r.id));
    return rows.map((row) => ({
      _id: row.id,
      name: row.name,
      email: row.email,
      description: row.description,
      role: row.role as Role,
      roleLevel: row.role_level,
      profileImage: row.profile_image,
      groups: (groups.get(row.id) ?? []).map((g) => ({ _id: g.id, name: g.name })),
      createdAt: row.created_at,
    }));
  }

  /** An administrator creates an account: ACTIVE and approved, in the default group. */
  async create(caller: Caller, body: CreateAccountRequest): Promise<Account> {
    const seats = await this.deps.licence.seats();
    const groupIds = await this.existingGroups(body.groups ?? []);
    const row = await newLocalUser({
      name: body.name,
      email: body.email,
      password: body.password ?? this.deps.initialPassword,
      role: 'USER',
      mustChangePassword: body.password === undefined,
    });
    if (body.status) row.status = body.status;
    if (body.approved === false) row.approved = 0;
    const defaultGroup = await this.deps.groups.defaultGroup();
    try {
      const memberships = [...new Set([defaultGroup.id, ...groupIds])].map((group_id) => ({ user_id: row.id, group_id }));
      const recorded = (trx: Transaction) => this.record('account.create', row, { role: row.role, status: row.status }, trx);
      if (!(await this.deps.users.insertWithGroups([row], memberships, seats, recorded))) throw noSeat();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('rules_email_duplicate');
      throw error;
    }
    return (await this.list(row.id))[0]!;
  }

  async update(caller: Caller, body: UpdateAccountRequest): Promise<Account> {
    const target = await this.find(body._id);
    const change = { name: body.name, role: body.role, status: body.status, approved: body.approved, groups: body.groups, profileImage: body.profileImage };
    if (!mayChangeAccount(caller.user, target, change)) throw forbidden();
    const patch: Parameters<UsersRepo['update']>[1] = {};
    if (body.name !== undefined) patch.name = body.name;
    if (body.role !== undefined && body.role !== target.role) {
      patch.role = body.role;
      patch.role_level = ROLE_LEVEL[body.role];
    }
    if (body.status !== undefined && body.status !== target.status) {
      patch.status = body.status;
      if (target.status === 'PENDING' && body.status === 'ACTIVE') patch.approved = 1;
    }
    if (body.approved !== undefined) patch.approved = body.approved ? 1 : 0;
    if (body.profileImage === null) patch.profile_image = null;
    // Folder entries are for USERs; an administrator holds their role's defaults everywhere.
    const promoted = patch.role_level !== undefined && patch.role_level >= ADMIN_LEVEL && target.role_level < ADMIN_LEVEL;
    // Role and status changes each have their record, written with the change under the accounts lock.
    const guardedRecords = async (trx: Transaction) => {
      if (patch.role) await this.record('account.role', target, { from: target.role, to: patch.role, folderEntriesRemoved: promoted }, trx);
      if (patch.status) await this.record('account.status', target, { from: target.status, to: patch.status }, trx);
    };
    if (Object.keys(patch).length > 0) {
      // Unblocking, approving or any other change to ACTIVE takes a licence seat; blocking or
      // demoting keeps an ACTIVE MASTER. Both are decided with the change, under one lock.
      const rules = {
        seats: patch.status === 'ACTIVE' ? await this.deps.licence.seats() : undefined,
        keepActiveMaster: (patch.role !== undefined && patch.role !== 'MASTER') || (patch.status !== undefined && patch.status !== 'ACTIVE'),
      };
      const refused = await this.deps.users.updateGuarded(target.id, patch, rules, guardedRecords);
      if (refused === 'no_seat') throw noSeat();
      if (refused === 'last_master') throw lastMaster();
      if (refused === 'not_found') throw notFound('user_not_found');
    }
    if (body.profileImage === null) await this.deps.avatars.remove(target.profile_image);
    if (promoted) await this.deps.permissions.deleteEntriesOf('user', target.id);
    if (body.groups !== undefined) {
      const added = await this.deps.groupsRepo.setGroupsOf(target.id, await this.existingGroups(body.groups));
      for (const groupId of added) await this.deps.groups.notifyMembership(caller, target.id, groupId);
    }
    // A blocked account is signed out everywhere at once, its open sockets closed.
    if (patch.status !== undefined && patch.status !== 'ACTIVE') await this.deps.sessions.endAllOf(target.id);
    // The rest of the call is one `account.update`.
    if (body.profileImage === null && target.profile_image) await this.record('account.avatar', target, { change: 'delete' });
    const other = {
      ...(patch.name !== undefined && patch.name !== target.name ? { name: patch.name } : {}),
      ...(body.groups ? { groups: body.groups.join(',') } : {}),
      ...(patch.approved !== undefined && !patch.status ? { approved: patch.approved === 1 } : {}),
    };
    if (Object.keys(other).length > 0) await this.record('account.update', target, other);
    return (await this.list(target.id))[0]!;
  }

  /** An administrator deletes an account; its sessions end with it. */
  async deleteByAdmin(caller: Caller, accountId: string): Promise<void> {
    const target = await this.find(accountId);
    if (!mayDeleteAccount(caller.user, target)) throw forbidden();
    await this.remove(target, (trx) => this.record('account.delete', target, { byOwner: false }, trx));
  }

  /** One's own account, after the password (checked like a sign-in: lockout and address throttle); the last ACTIVE MASTER stays. */
  async deleteOwn(caller: Caller, id: string, password: string, reason: DeleteAccountReason): Promise<void> {
    if (id !== caller.user.id) throw forbidden();
    const right = await this.deps.guard.verify(caller.ip ?? '', caller.user, () => verifyPassword(caller.user.password_hash, password));
    if (!right) throw unauthorized('rules_password_not_match');
    // Its own deletion: the actor is named with who it was, since the row goes in the same transaction.
    await this.remove(caller.user, (trx) => this.record('account.delete', caller.user, { byOwner: true, reason }, trx, accountActor(caller.user)));
  }

  async setAvatar(caller: Caller, id: string, bytes: Buffer): Promise<User> {
    if (id !== caller.user.id) throw forbidden();
    const url = await this.deps.avatars.store(bytes);
    await this.deps.avatars.remove(caller.user.profile_image);
    await this.deps.users.update(caller.user.id, { profile_image: url });
    await this.record('account.avatar', caller.user, { change: 'set' });
    return toUserResponse((await this.deps.users.findById(caller.user.id))!);
  }

  async removeAvatar(caller: Caller, id: string): Promise<User> {
    if (id !== caller.user.id) throw forbidden();
    await this.deps.avatars.remove(caller.user.profile_image);
    await this.deps.users.update(caller.user.id, { profile_image: null });
    await this.record('account.avatar', caller.user, { change: 'delete' });
    return toUserResponse((await this.deps.users.findById(caller.user.id))!);
  }

  /** Reads an uploaded sheet into the three preview lists. */
  async previewSheet(bytes: Buffer, fileName: string): Promise<BulkPreview> {
    const sheet = await readSheet(bytes, fileName, BULK_REGISTER_MAX_ROWS);
    const rows = rowsFromSheet(sheet);
    if (rows.length > BULK_REGISTER_MAX_ROWS) throw badRequest('excel_too_many_rows');
    return this.classify(rows);
  }

  async classify(rows: BulkRow[]): Promise<BulkPreview> {
    const emails = rows.map((r) => r.email.trim().toLowerCase()).filter(Boolean);
    const groups = await this.deps.groupsRepo.listWithCounts();
    return classifyRows(rows, await this.deps.users.takenEmails(emails), new Set(groups.map((g) => g.name)));
  }

  /** Registers every row, or none: a list with invalid or duplicate rows is 409 `check_input_message`. */
  async register(caller: Caller, rows: BulkRow[]): Promise<number> {
    if (rows.length === 0) throw badRequest('no_register_information');
    const preview = await this.classify(rows);
    if (preview.invalid.length > 0 || preview.duplicate.length > 0) throw conflict('check_input_message');
    const seats = await this.deps.licence.seats();
    const defaultGroup = await this.deps.groups.defaultGroup();
    const groupIds = new Map((await this.deps.groupsRepo.listWithCounts()).map((g) => [g.name, g.id]));
    // The initial password is the same for every row without one: hash it once.
    const initialHash = await hashPassword(this.deps.initialPassword);
    const users: UserRow[] = [];
    const memberships: { user_id: string; group_id: string }[] = [];
    for (const row of preview.available) {
      const user = await newLocalUser({
        name: row.name,
        email: row.email,
        password: row.password || this.deps.initialPassword,
        role: 'USER',
        mustChangePassword: !row.password,
      });
      if (!row.password) user.password_hash = initialHash;
      users.push(user);
      for (const groupId of new Set([defaultGroup.id, ...(row.groups ?? []).map((g) => groupIds.get(g)!)]))
        memberships.push({ user_id: user.id, group_id: groupId });
    }
    try {
      const recorded = async (trx: Transaction) => {
        for (const user of users) await this.record('account.create', user, { role: user.role, status: user.status, list: true }, trx);
      };
      if (!(await this.deps.users.insertWithGroups(users, memberships, seats, recorded))) throw noSeat();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('check_input_message');
      throw error;
    }
    return users.length;
  }

  /**
   * Deletes an account, refused (409 `last_master_warning`) when it is the only ACTIVE
   * MASTER (the only one who can still sign in and hold every permission); blocked or
   * pending MASTERs do not count. The check and the deletion are one decision (see
   * UsersRepo), so two MASTERs deleting each other at once cannot both go.
   */
  private async remove(target: UserRow, recorded: InAccountTransaction): Promise<void> {
    if (!(await this.deps.users.deleteUnlessLastMaster(target.id, recorded))) throw lastMaster();
    await this.deps.avatars.remove(target.profile_image);
    await this.deps.permissions.deleteEntriesOf('user', target.id);
    // Its sessions went with the row; their open sockets close now.
    await this.deps.sessions.endAllOf(target.id);
  }

  private async existingGroups(ids: string[]): Promise<string[]> {
    const found = await this.deps.groupsRepo.findByIds([...new Set(ids)]);
    if (found.length !== new Set(ids).size) throw badRequest('group_not_found');
    return found.map((g) => g.id);
  }

  async find(id: string): Promise<UserRow> {
    const user = await this.deps.users.findById(id);
    if (!user) throw notFound('user_not_found');
    return user;
  }

  private toAccount(row: UserRow, groups: { id: string; name: string }[]): Account {
    return { ...toUserResponse(row), groups: groups.map((g) => ({ _id: g.id, name: g.name })) };
  }

  private record(
    action: AuditAction,
    account: Pick<UserRow, 'id' | 'name' | 'email'>,
    params: AuditParams,
    trx?: Transaction,
    actor?: AuditActor,
  ): Promise<void> {
    const target = { kind: 'account' as const, id: account.id, label: `${account.name} <${account.email}>` };
    return this.deps.audit.record({ action, target, params, ...(actor ? { actor } : {}) }, trx);
  }
}
