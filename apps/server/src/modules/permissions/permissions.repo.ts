import { PERMISSION_TYPES, type PermissionType } from '@bogwan/contracts';
import type { Selectable, Transaction } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Database, ResourcesTable } from '../../db/schema.js';
import { newId } from '../../ids.js';

export type ResourceRow = Selectable<ResourcesTable>;
export type EntityType = 'user' | 'group';

/** One stored entry, its permission list parsed. */
export interface EntryRow {
  resource_id: string;
  node_id: string;
  entity_type: EntityType;
  entity_id: string;
  permissions: PermissionType[];
  access: number;
}

/** An entry to write: upserted, or removed when `remove`. */
export interface EntryChange {
  entity_type: EntityType;
  entity_id: string;
  permissions: PermissionType[];
  access: number;
  remove: boolean;
}

function parsePermissions(text: string): PermissionType[] {
  try {
    const list: unknown = JSON.parse(text);
    return Array.isArray(list) ? PERMISSION_TYPES.filter((p) => list.includes(p)) : [];
  } catch {
    return [];
  }
}

const toEntry = (row: { resource_id: string; node_id: string; entity_type: string; entity_id: string; permissions: string; access: number }): EntryRow => ({
  ...row,
  entity_type: row.entity_type as EntityType,
  permissions: parsePermissions(row.permissions),
  access: Number(row.access),
});

/** SQL for resources (nodes with permission entries) and their entries. */
export class PermissionsRepo {
  constructor(private readonly db: Db) {}

  /** Every entry naming this user or one of these groups (what a permission check needs). */
  async entriesOf(userId: string, groupIds: string[]): Promise<EntryRow[]> {
    const rows = await this.db
      .selectFrom('resource_entries')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([eb('entity_type', '=', 'user'), eb('entity_id', '=', userId)]),
          ...(groupIds.length > 0 ? [eb.and([eb('entity_type', '=', 'group'), eb('entity_id', 'in', groupIds)])] : []),
        ]),
      )
      .execute();
    return rows.map(toEntry);
  }

  async entriesOfResources(resourceIds: string[]): Promise<EntryRow[]> {
    if (resourceIds.length === 0) return [];
    const rows = await this.db.selectFrom('resource_entries').selectAll().where('resource_id', 'in', resourceIds).execute();
    return rows.map(toEntry);
  }

  /** Entries on these nodes for one entity (permission tabs of the edit dialogs). */
  async entriesOnNodes(entityType: EntityType, entityId: string, nodeIds: string[]): Promise<EntryRow[]> {
    if (nodeIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('resource_entries')
      .selectAll()
      .where('entity_type', '=', entityType)
      .where('entity_id', '=', entityId)
      .where('node_id', 'in', nodeIds)
      .execute();
    return rows.map(toEntry);
  }

  findById(id: string): Promise<ResourceRow | undefined> {
    return this.db.selectFrom('resources').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByNode(nodeId: string): Promise<ResourceRow | undefined> {
    return this.db.selectFrom('resources').selectAll().where('node_id', '=', nodeId).executeTakeFirst();
  }

  list(): Promise<ResourceRow[]> {
    return this.db.selectFrom('resources').selectAll().orderBy('created_at').execute();
  }

  /**
   * Creates the resource of a node unless it has one, then applies the entry changes, in one
   * transaction (`also` last, in it: the audit record); answers the resource.
   */
  async save(nodeId: string, createdBy: string, changes: EntryChange[], also?: (trx: Transaction<Database>) => Promise<void>): Promise<ResourceRow> {
    return this.db.transaction().execute(async (trx) => {
      const now = new Date().toISOString();
      let resource = await trx.selectFrom('resources').selectAll().where('node_id', '=', nodeId).executeTakeFirst();
      if (!resource) {
        resource = { id: newId(), node_id: nodeId, created_by: createdBy, created_at: now, updated_at: now };
        await trx
          .insertInto('resources')
          .values(resource)
          .onConflict((oc) => oc.column('node_id').doNothing())
          .execute();
        resource = await trx.selectFrom('resources').selectAll().where('node_id', '=', nodeId).executeTakeFirstOrThrow();
      } else {
        await trx.updateTable('resources').set({ updated_at: now }).where('id', '=', resource.id).execute();
      }
      for (const change of changes) {
        await trx
          .deleteFrom('resource_entries')
          .where('resource_id', '=', resource.id)
          .where('entity_type', '=', change.entity_type)
          .where('entity_id', '=', change.entity_id)
          .execute();
        if (change.remove) continue;
        await trx
          .insertInto('resource_entries')
          .values({
            resource_id: resource.id,
            node_id: nodeId,
            entity_type: change.entity_type,
            entity_id: change.entity_id,
            permissions: JSON.stringify(change.permissions),
            access: change.access,
          })
          .execute();
      }
      await also?.(trx);
      return resource;
    });
  }

  async delete(id: string, also?: (trx: Transaction<Database>) => Promise<void>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('resource_entries').where('resource_id', '=', id).execute();
      await trx.deleteFrom('resources').where('id', '=', id).execute();
      await also?.(trx);
    });
  }

  /** Drops every entry of a user or group (the account or group is gone). */
  async deleteEntriesOf(entityType: EntityType, entityId: string): Promise<void> {
    await this.db.deleteFrom('resource_entries').where('entity_type', '=', entityType).where('entity_id', '=', entityId).execute();
  }
}
