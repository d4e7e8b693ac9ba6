import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// Before tree changes re-checked ancestry under a lock, two folders moved into each other
// at the same time could both commit: each became the other's parent, a cycle no path
// reaches. Their contents still counted in their root's usage and kept their blobs. This
// puts each such cycle back: of its folders, the one with the smallest id goes to the top
// of its root folder (whose usage counts it already), under its name or, when a live item
// there holds it, the first free "name (n)". Nodes whose parent is simply missing are not
// cycles and are left alone.

const MAX_DEPTH = 10000;
const NAME_MAX = 255;

interface LinkRow {
  id: string;
  parent_id: string;
  root_id: string;
  name: string;
  trash_key: string;
}

export async function up(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<LinkRow>`
    with recursive reach(id, depth) as (
      select id, 0 from nodes where parent_id = ''
      union all
      select n.id, r.depth + 1 from nodes n join reach r on n.parent_id = r.id where r.depth < ${MAX_DEPTH}
    )
    select id, parent_id, root_id, name, trash_key from nodes where id not in (select id from reach)`.execute(db);
  for (const member of cycleLeaders(rows)) {
    const root: { id: string; parent_id: string } | undefined = await db
      .selectFrom('nodes')
      .select(['id', 'parent_id'])
      .where('id', '=', member.root_id)
      .executeTakeFirst();
    if (!root || root.parent_id !== '' || root.id === member.id) continue;
    const name = member.trash_key === '' ? await freeName(db, root.id, member.name) : member.name;
    await db.updateTable('nodes').set({ parent_id: root.id, name }).where('id', '=', member.id).execute();
  }
}

/** The member with the smallest id of each cycle among nodes no root reaches. */
function cycleLeaders(rows: LinkRow[]): LinkRow[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const state = new Map<string, 'walking' | 'done'>();
  const leaders: LinkRow[] = [];
  for (const start of rows) {
    const path: LinkRow[] = [];
    let node: LinkRow | undefined = start;
    while (node && !state.has(node.id)) {
      state.set(node.id, 'walking');
      path.push(node);
      node = byId.get(node.parent_id);
    }
    if (node && state.get(node.id) === 'walking') {
      const cycle = path.slice(path.indexOf(node));
      leaders.push(cycle.reduce((a, b) => (b.id < a.id ? b : a)));
    }
    for (const walked of path) state.set(walked.id, 'done');
  }
  return leaders;
}

/** `name` when no live item at the top of the root holds it, else its first free numbered form. */
async function freeName(db: Kysely<any>, rootId: string, name: string): Promise<string> {
  const taken = new Set(
    (await db.selectFrom('nodes').select('name').where('parent_id', '=', rootId).where('trash_key', '=', '').execute()).map(
      (row: { name: string }) => row.name,
    ),
  );
  if (!taken.has(name)) return name;
  for (let n = 1; ; n += 1) {
    const suffix = ` (${n})`;
    const candidate = name.slice(0, NAME_MAX - suffix.length).trimEnd() + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}
