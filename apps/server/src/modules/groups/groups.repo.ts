import type { Selectable, Transaction } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Database, GroupsTable } from '../../db/schema.js';
import { newId } from '../../ids.js';
import type { UserRow } from '../users/users.repo.js';

export type GroupRow = Selectable<GroupsTable>;
export type GroupWithCount = GroupRow & { user_count: number };

/** SQL for groups and their members; the only place that touches these tables. */
export class GroupsRepo {
  constructor(private readonly db: Db) {}

  findById(id: string): Promise<GroupRow | undefined> {
    return this.db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByName(name: string): Promise<GroupRow | undefined> {
    return this.db.selectFrom('groups').selectAll().where('name', '=', name).executeTakeFirst();
  }

  async findByNames(names: string[]): Promise<GroupRow[]> {
    if (names.length === 0) return [];
    return this.db.selectFrom('groups').selectAll().where('name', 'in', names).execute();
  }

  async findByIds(ids: string[]): Promise<GroupRow[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('groups').selectAll().where('id', 'in', ids).execute();
  }

  /** Every group with its member count, by name. */
  async listWithCounts(): Promise<GroupWithCount[]> {
    const rows = await this.db
      .selectFrom('groups')
      .leftJoin('group_members', 'group_members.group_id', 'groups.id')
      .selectAll('groups')
      .select((eb) => eb.fn.count<number>('group_members.user_id').as('user_count'))
      .groupBy(['groups.id', 'groups.name', 'groups.description', 'groups.created_by', 'groups.created_at', 'groups.updated_at'])
      .orderBy('groups.name')
      .execute();
    return rows.map((r) => ({ ...r, user_count: Number(r.user_count) }));
  }

  /** Creates the group unless one of that name exists; answers the stored group. */
  async ensure(name: string, description: string): Promise<GroupRow> {
    const now = new Date().toISOString();
    await this.db
      .insertInto('groups')
      .values({ id: newId(), name, description, created_by: null, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return (await this.findByName(name))!;
  }

  async insert(row: GroupRow): Promise<void> {
    await this.db.insertInto('groups').values(row).execute();
  }

  async update(id: string, patch: Partial<Pick<GroupRow, 'name' | 'description'>>): Promise<void> {
    await this.db
      .updateTable('groups')
      .set({ ...patch, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /** Removes every member first, then the group, in one transaction (the spec's order); `also` runs last in it (the audit record). */
  async delete(id: string, also?: (trx: Transaction<Database>) => Promise<void>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('group_members').where('group_id', '=', id).execute();
      await trx.deleteFrom('resource_entries').where('entity_type', '=', 'group').where('entity_id', '=', id).execute();
      await trx.deleteFrom('groups').where('id', '=', id).execute();
      await also?.(trx);
    });
  }

  /** Members of a group with the time they joined. */
  async members(groupId: string): Promise<(UserRow & { joined_at: string })[]> {
    return this.db
      .selectFrom('group_members')
      .innerJoin('users', 'users.id', 'group_members.user_id')
      .selectAll('users')
      .select('group_members.created_at as joined_at')
      .where('group_members.group_id', '=', groupId)
      .orderBy('users.name')
      .execute();
  }

  /** Memberships of many groups at once: group id → member rows. */
  async membersOf(groupIds: string[]): Promise<Map<string, UserRow[]>> {
    const byGroup = new Map<string, UserRow[]>(groupIds.map((id) => [id, []]));
    if (groupIds.length === 0) return byGroup;
    const rows = await this.db
      .selectFrom('group_members')
      .innerJoin('users', 'users.id', 'group_members.user_id')
      .selectAll('users')
      .select('group_members.group_id')
      .where('group_members.group_id', 'in', groupIds)
      .orderBy('users.name')
      .execute();
    for (const { group_id, ...user } of rows) byGroup.get(group_id)?.push(user);
    return byGroup;
  }

  /** Ids of the groups a user belongs to. */
  async groupIdsOf(userId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('group_members').select('group_id').where('user_id', '=', userId).execute();
    return rows.map((r) => r.group_id);
  }

  /** Groups of many users: user id → groups (id, name). */
  async groupsOfUsers(userIds?: string[]): Promise<Map<string, { id: string; name: string }[]>> {
    let query = this.db
      .selectFrom('group_members')
      .innerJoin('groups', 'groups.id', 'group_members.group_id')
      .select(['group_members.user_id', 'groups.id', 'groups.name'])
      .orderBy('groups.name');
    if (userIds) {
      if (userIds.length === 0) return new Map();
      query = query.where('group_members.user_id', 'in', userIds);
    }
    const byUser = new Map<string, { id: string; name: string }[]>();
    for (const row of await query.execute()) {
      const list = byUser.get(row.user_id) ?? [];
      list.push({ id: row.id, name: row.name });
      byUser.set(row.user_id, list);
    }
    return byUser;
  }

  /** Adds members (existing memberships are kept); answers the ids that were newly added. */
  async addMembers(groupId: string, userIds: string[]): Promise<string[]> {
    const existing = new Set((await this.db.selectFrom('group_members').select('user_id').where('group_id', '=', groupId).execute()).map((r) => r.user_id));
    const added = [...new Set(userIds)].filter((id) => !existing.has(id));
    if (added.length === 0) return [];
    const now = new Date().toISOString();
    await this.db
      .insertInto('group_members')
      .values(added.map((user_id) => ({ group_id: groupId, user_id, created_at: now })))
      .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
      .execute();
    return added;
  }

  async removeMember(groupId: string, userId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('group_members').where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Makes the user's memberships exactly these groups; answers the ids that were added. */
  async setGroupsOf(userId: string, groupIds: string[]): Promise<string[]> {
    const wanted = [...new Set(groupIds)];
    return this.db.transaction().execute(async (trx) => {
      const current = new Set((await trx.selectFrom('group_members').select('group_id').where('user_id', '=', userId).execute()).map((r) => r.group_id));
      const added = wanted.filter((id) => !current.has(id));
      const removed = [...current].filter((id) => !wanted.includes(id));
      if (removed.length > 0) await trx.deleteFrom('group_members').where('user_id', '=', userId).where('group_id', 'in', removed).execute();
      const now = new Date().toISOString();
      if (added.length > 0)
        await trx
          .insertInto('group_members')
          .values(added.map((group_id) => ({ group_id, user_id: userId, created_at: now })))
          .execute();
      return added;
    });
  }
}
