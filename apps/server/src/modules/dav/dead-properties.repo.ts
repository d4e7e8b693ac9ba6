import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** A dead property: its namespace, local name and value (the element's content as XML). */
export interface DeadProperty {
  ns: string;
  name: string;
  value: string;
}

/** One change of a PROPPATCH: set a value, or remove (value undefined). */
export interface PropertyChange {
  ns: string;
  name: string;
  value?: string;
}

/** Node ids per statement: keeps the bound parameters under SQLite's limit. */
const BATCH = 500;

/** SQL for WebDAV dead properties (table `dav_properties`). */
export class DeadPropertiesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The properties of each node, keyed by node id (one statement per 500 nodes: a listing is one query). */
  async ofNodes(ids: string[]): Promise<Map<string, DeadProperty[]>> {
    const byNode = new Map<string, DeadProperty[]>();
    for (let i = 0; i < ids.length; i += BATCH) {
      const rows = await this.db
        .selectFrom('dav_properties')
        .select(['node_id', 'namespace', 'name', 'value'])
        .where('node_id', 'in', ids.slice(i, i + BATCH))
        .orderBy('namespace')
        .orderBy('name')
        .execute();
      for (const row of rows) {
        const list = byNode.get(row.node_id) ?? [];
        list.push({ ns: row.namespace, name: row.name, value: row.value });
        byNode.set(row.node_id, list);
      }
    }
    return byNode;
  }

  /**
   * The properties of a folder and of its live members, keyed by node id: one statement
   * however many members (a PROPFIND of depth 1).
   */
  async ofListing(folderId: string): Promise<Map<string, DeadProperty[]>> {
    const rows = await this.db
      .selectFrom('dav_properties')
      .select(['node_id', 'namespace', 'name', 'value'])
      .where((eb) =>
        eb.or([
          eb('node_id', '=', folderId),
          eb('node_id', 'in', eb.selectFrom('nodes').select('id').where('parent_id', '=', folderId).where('trash_key', '=', '')),
        ]),
      )
      .orderBy('namespace')
      .orderBy('name')
      .execute();
    const byNode = new Map<string, DeadProperty[]>();
    for (const row of rows) {
      const list = byNode.get(row.node_id) ?? [];
      list.push({ ns: row.namespace, name: row.name, value: row.value });
      byNode.set(row.node_id, list);
    }
    return byNode;
  }

  /**
   * Applies the changes in order, all or none (one transaction); answers false, with nothing
   * changed, when the node would hold more than `max` properties afterwards.
   */
  async apply(nodeId: string, changes: PropertyChange[], max: number): Promise<boolean> {
    return this.db
      .transaction()
      .execute(async (trx) => {
        const now = new Date().toISOString();
        for (const change of changes) {
          if (change.value === undefined) {
            await trx.deleteFrom('dav_properties').where('node_id', '=', nodeId).where('namespace', '=', change.ns).where('name', '=', change.name).execute();
            continue;
          }
          await trx
            .insertInto('dav_properties')
            .values({ node_id: nodeId, namespace: change.ns, name: change.name, value: change.value, updated_at: now })
            .onConflict((oc) => oc.columns(['node_id', 'namespace', 'name']).doUpdateSet({ value: change.value!, updated_at: now }))
            .execute();
        }
        const count = await trx
          .selectFrom('dav_properties')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('node_id', '=', nodeId)
          .executeTakeFirstOrThrow();
        if (Number(count.n) > max) throw new TooManyProperties();
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof TooManyProperties) return false;
        throw error;
      });
  }

  /** Gives `toId` the properties of `fromId` (COPY). */
  async copy(fromId: string, toId: string): Promise<void> {
    const rows = await this.db.selectFrom('dav_properties').selectAll().where('node_id', '=', fromId).execute();
    if (rows.length === 0) return;
    await this.db
      .insertInto('dav_properties')
      .values(rows.map((row) => ({ ...row, node_id: toId })))
      .execute();
  }
}

class TooManyProperties extends Error {}
