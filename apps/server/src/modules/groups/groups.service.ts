import { DEFAULT_GROUP_NAME, type CreateGroupRequest, type Group, type GroupInfo, type Role, type UpdateGroupRequest } from '@bogwan/contracts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { AuditAction, AuditParams } from '@bogwan/contracts';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { Caller } from '../files/files.service.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import type { ResourcesService } from '../permissions/resources.service.js';
import { mayChangeGroupsOf } from '../users/account-rules.js';
import type { UsersRepo } from '../users/users.repo.js';
import { isUniqueViolation } from '../auth/setup.repo.js';
import type { GroupRow, GroupsRepo } from './groups.repo.js';

/** Groups: the list with members and folder permissions, create, edit, delete, members. */
export class GroupsService {
  constructor(
    private readonly repo: GroupsRepo,
    private readonly users: UsersRepo,
    private readonly resources: ResourcesService,
    private readonly notifications: NotificationsService,
    private readonly audit: AuditRecorder,
  ) {}

  /** The group every account joins; created on first use. */
  defaultGroup(): Promise<GroupRow> {
    return this.repo.ensure(DEFAULT_GROUP_NAME, '');
  }

  async list(): Promise<Group[]> {
    await this.defaultGroup();
    const groups = await this.repo.listWithCounts();
    const members = await this.repo.membersOf(groups.map((g) => g.id));
    const result: Group[] = [];
    for (const group of groups) {
      result.push({
        _id: group.id,
        name: group.name,
        description: group.description,
        createdAt: group.created_at,
        users: (members.get(group.id) ?? []).map((u) => ({
          _id: u.id,
          name: u.name,
          email: u.email,
          role: u.role as Role,
          profileImage: u.profile_image,
          createdAt: u.created_at,
        })),
        permissions: await this.resources.folderAccess('group', group.id),
      });
    }
    return result;
  }

  async info(id?: string): Promise<GroupInfo[]> {
    await this.defaultGroup();
    const groups = await this.repo.listWithCounts();
    return groups.filter((g) => id === undefined || g.id === id).map((g) => ({ _id: g.id, name: g.name, description: g.description, userCount: g.user_count }));
  }

  async create(caller: Caller, body: CreateGroupRequest): Promise<GroupInfo> {
    const now = new Date().toISOString();
    const row: GroupRow = { id: newId(), name: body.name, description: body.description ?? '', created_by: caller.user.id, created_at: now, updated_at: now };
    try {
      await this.repo.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('group_name_duplicate');
      throw error;
    }
    await this.record('group.create', row, { name: row.name });
    return { _id: row.id, name: row.name, description: row.description, userCount: 0 };
  }

  async update(caller: Caller, body: UpdateGroupRequest): Promise<GroupInfo> {
    const group = await this.find(body._id);
    const patch: { name?: string; description?: string } = {};
    if (body.name !== undefined && body.name !== group.name) {
      if (group.name === DEFAULT_GROUP_NAME) throw conflict('default_group_unrenamable');
      patch.name = body.name;
    }
    if (body.description !== undefined && body.description !== group.description) patch.description = body.description;
    if (Object.keys(patch).length > 0) {
      try {
        await this.repo.update(group.id, patch);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('group_name_duplicate');
        throw error;
      }
      await this.record('group.update', group, { ...(patch.name ? { from: group.name, to: patch.name } : {}), description: patch.description !== undefined });
    }
    return (await this.info(group.id))[0]!;
  }

  /** Removes the group from each member, then deletes it; `default` stays. */
  async remove(caller: Caller, id: string): Promise<void> {
    const group = await this.find(id);
    if (group.name === DEFAULT_GROUP_NAME) throw conflict('default_group_undeletable');
    await this.repo.delete(group.id, (trx) => this.record('group.delete', group, { name: group.name }, trx));
  }

  /** Invites accounts; each one added is notified. All or none: one account out of reach refuses the call. */
  async addMembers(caller: Caller, id: string, userIds: string[]): Promise<GroupInfo> {
    const group = await this.find(id);
    const found = await this.users.findByIds([...new Set(userIds)]);
    if (found.length !== new Set(userIds).size) throw badRequest('user_not_found');
    if (!found.every((user) => mayChangeGroupsOf(caller.user, user))) throw forbidden();
    const added = await this.repo.addMembers(group.id, userIds);
    for (const userId of added) await this.notifyMember(caller, userId, group);
    if (added.length > 0) await this.record('group.members', group, { added: added.join(','), count: added.length });
    return (await this.info(group.id))[0]!;
  }

  /** Takes an account out of a group, under the same account rules as inviting. */
  async removeMember(caller: Caller, id: string, userId: string): Promise<GroupInfo> {
    const group = await this.find(id);
    const user = await this.users.findById(userId);
    if (!user) throw notFound('user_not_found');
    if (!mayChangeGroupsOf(caller.user, user)) throw forbidden();
    if (!(await this.repo.removeMember(group.id, userId))) throw notFound('user_not_found');
    await this.record('group.members', group, { removed: userId, email: user.email });
    return (await this.info(group.id))[0]!;
  }

  /** `POST /api/notification/group`: tells a member about the group (only members are told). */
  async notifyMembership(caller: Caller, userId: string, groupId: string): Promise<void> {
    const group = await this.find(groupId);
    if (!(await this.repo.groupIdsOf(userId)).includes(group.id)) throw badRequest('user_not_found');
    await this.notifyMember(caller, userId, group);
  }

  private async notifyMember(caller: Caller, userId: string, group: GroupRow): Promise<void> {
    await this.notifications.notify(userId, 'note_group_added', { group: group.name, by: caller.user.name });
  }

  private async find(id: string): Promise<GroupRow> {
    const group = await this.repo.findById(id);
    if (!group) throw notFound('group_not_found');
    return group;
  }

  private record(action: AuditAction, group: GroupRow, params: AuditParams, trx?: Parameters<AuditRecorder['record']>[1]): Promise<void> {
    return this.audit.record({ action, target: { kind: 'group', id: group.id, label: group.name }, params }, trx);
  }
}
