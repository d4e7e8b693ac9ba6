import { sql } from 'kysely';
import type { Db } from '../../db/index.js';

/** Guards the recursive queries against a cycle a bug might leave behind. */
const MAX_DEPTH = 1000;

/** One node on the way up from a node to its root, the node itself first. */
export interface LockLink {
  id: string;
  lock: number;
  depth: number;
}

/** SQL for secure (locked) folders: which locks lie above or below a node. */
export class SecureRepo {
  constructor(private readonly db: Db) {}

  /** The node and every folder above it, nearest first, with their lock flags. */
  async chain(nodeId: string): Promise<LockLink[]> {
    const result = await sql<LockLink>`
      with recursive up(id, parent_id, lock, depth) as (
        select id, parent_id, lock, 0 from nodes where id = ${nodeId}
        union all
        select n.id, n.parent_id, n.lock, u.depth + 1 from nodes n join up u on n.id = u.parent_id
        where u.depth < ${MAX_DEPTH}
      )
      select id, lock, depth from up`.execute(this.db);
    return result.rows.map((r) => ({ id: r.id, lock: Number(r.lock), depth: Number(r.depth) })).sort((a, b) => a.depth - b.depth);
  }

  /**
   * The topmost locked live folders below `folderId`: the walk goes down through unlocked
   * live folders and stops at each locked one (what lies under it is covered by it).
   */
  async topLocksBelow(folderId: string): Promise<string[]> {
    const result = await sql<{ id: string }>`
      with recursive down(id, lock, depth) as (
        select id, lock, 1 from nodes where parent_id = ${folderId} and folder = 1 and trash_key = ''
        union all
        select n.id, n.lock, d.depth + 1 from nodes n join down d on n.parent_id = d.id
        where d.lock = 0 and n.folder = 1 and n.trash_key = '' and d.depth < ${MAX_DEPTH}
      )
      select id from down where lock = 1`.execute(this.db);
    return result.rows.map((r) => r.id);
  }
}
