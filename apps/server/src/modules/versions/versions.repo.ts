import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import { VERSIONS_DEFAULT_COUNT, VERSIONS_DEFAULT_DAYS, type VersionSettings } from '@bogwan/contracts';
import type { Database, FileVersionsTable } from '../../db/schema.js';

export type VersionRow = Selectable<FileVersionsTable>;

/** Settings key of the global retention (`{maxVersions, maxAgeDays}`; absent: the defaults). */
export const VERSION_SETTING = 'versions.retention';
export const DEFAULT_VERSION_SETTINGS: VersionSettings = { maxVersions: VERSIONS_DEFAULT_COUNT, maxAgeDays: VERSIONS_DEFAULT_DAYS };

/** A root folder's own retention; a null field follows the global setting. */
export interface RootOverride {
  maxVersions: number | null;
  maxAgeDays: number | null;
}

/** Rows to touch in one statement; keeps the bound parameters under SQLite's limit. */
const BATCH = 200;

/**
 * SQL for file versions and their retention. Built on the database or on a transaction
 * (`new VersionsRepo(trx)`): inside a tree change everything runs in that transaction.
 */
export class VersionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: VersionRow): Promise<void> {
    await this.db.insertInto('file_versions').values(row).execute();
  }

  find(id: string): Promise<VersionRow | undefined> {
    return this.db.selectFrom('file_versions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A file's versions, newest first. */
  listOf(nodeId: string): Promise<VersionRow[]> {
    return this.db.selectFrom('file_versions').selectAll().where('node_id', '=', nodeId).orderBy('replaced_at', 'desc').orderBy('id', 'desc').execute();
  }

  /** The versions of the given files (all of them). */
  async ofNodes(nodeIds: string[]): Promise<VersionRow[]> {
    const rows: VersionRow[] = [];
    for (let i = 0; i < nodeIds.length; i += BATCH) {
      rows.push(
        ...(await this.db
          .selectFrom('file_versions')
          .selectAll()
          .where('node_id', 'in', nodeIds.slice(i, i + BATCH))
          .execute()),
      );
    }
    return rows;
  }

  async delete(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += BATCH)
      await this.db
        .deleteFrom('file_versions')
        .where('id', 'in', ids.slice(i, i + BATCH))
        .execute();
  }

  /** The versions of the given files now count in another root (their files moved there). */
  async setRoot(nodeIds: string[], rootId: string): Promise<void> {
    for (let i = 0; i < nodeIds.length; i += BATCH) {
      await this.db
        .updateTable('file_versions')
        .set({ root_id: rootId })
        .where('node_id', 'in', nodeIds.slice(i, i + BATCH))
        .execute();
    }
  }

  /** Versions of one root replaced before `before`. */
  olderThan(rootId: string, before: string, limit = 1000): Promise<VersionRow[]> {
    return this.db.selectFrom('file_versions').selectAll().where('root_id', '=', rootId).where('replaced_at', '<', before).limit(limit).execute();
  }

  /** Files of one root that hold more than `keep` versions. */
  async nodesOver(rootId: string, keep: number, limit = 1000): Promise<string[]> {
    const rows = await this.db
      .selectFrom('file_versions')
      .select('node_id')
      .where('root_id', '=', rootId)
      .groupBy('node_id')
      .having(sql`count(*)`, '>', keep)
      .limit(limit)
      .execute();
    return rows.map((r) => r.node_id);
  }

  /** The global retention, and the root's own when it has one. */
  async policyOf(rootId: string): Promise<{ global: VersionSettings; root: RootOverride }> {
    const setting = await this.db.selectFrom('settings').select('value').where('key', '=', VERSION_SETTING).executeTakeFirst();
    const global = setting ? (JSON.parse(setting.value) as VersionSettings) : DEFAULT_VERSION_SETTINGS;
    const own = await this.db.selectFrom('version_policies').selectAll().where('root_id', '=', rootId).executeTakeFirst();
    return { global, root: { maxVersions: own?.max_versions ?? null, maxAgeDays: own?.max_age_days ?? null } };
  }

  async setRootOverride(rootId: string, override: RootOverride): Promise<void> {
    const values = { max_versions: override.maxVersions, max_age_days: override.maxAgeDays, updated_at: new Date().toISOString() };
    await this.db
      .insertInto('version_policies')
      .values({ root_id: rootId, ...values })
      .onConflict((oc) => oc.column('root_id').doUpdateSet(values))
      .execute();
  }

  /** Roots that hold versions. */
  async rootsWithVersions(): Promise<string[]> {
    const rows = await this.db.selectFrom('file_versions').select('root_id').distinct().execute();
    return rows.map((r) => r.root_id);
  }
}

/** The retention that applies: the root's own fields where set, else the global ones. */
export function effectivePolicy(policy: { global: VersionSettings; root: RootOverride }): VersionSettings {
  return {
    maxVersions: policy.root.maxVersions ?? policy.global.maxVersions,
    maxAgeDays: policy.root.maxAgeDays ?? policy.global.maxAgeDays,
  };
}
