import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// Every node name in Unicode NFC: from now on names are stored and looked up in NFC, so a
// name typed as decomposed jamo (NFD, as macOS hands names over) and the same name typed
// as syllables are one name. Nothing is merged and nothing fails: a name already in NFC
// stays; of the others, in id order (ids grow with time), each takes its NFC form when no
// live sibling holds or claims it, and else the first free " (n)" before its extension (a
// folder's at the end), as "keep both" names it. Trashed items block no name.

const BATCH = 500;
const NAME_MAX = 255;

interface NameRow {
  id: string;
  parent_id: string;
  name: string;
  trash_key: string;
  folder: number;
}

export async function up(db: Kysely<any>): Promise<void> {
  const changing = new Map<string, NameRow[]>();
  let after = '';
  for (;;) {
    const rows: NameRow[] = await columns(db.selectFrom('nodes')).where('id', '>', after).orderBy('id').limit(BATCH).execute();
    if (rows.length === 0) break;
    after = rows.at(-1)!.id;
    for (const row of rows) {
      if (row.name.normalize('NFC') === row.name) continue;
      // A trashed item is alone under its trash key: only live siblings can clash.
      const key = row.trash_key === '' ? row.parent_id : `\u0000${row.id}`;
      changing.set(key, [...(changing.get(key) ?? []), row]);
    }
  }
  for (const rows of changing.values()) {
    for (const [id, name] of await newNames(db, rows)) await db.updateTable('nodes').set({ name }).where('id', '=', id).execute();
  }
}

function columns(query: any) {
  return query.select(['id', 'parent_id', 'name', 'trash_key', 'folder']);
}

/** The new names of `rows` (siblings, in id order), given what their live siblings hold. */
async function newNames(db: Kysely<any>, rows: NameRow[]): Promise<Map<string, string>> {
  const live = rows[0]!.trash_key === '';
  const siblings: NameRow[] = live ? await columns(db.selectFrom('nodes')).where('parent_id', '=', rows[0]!.parent_id).where('trash_key', '=', '').execute() : [];
  // Who holds each name: those already in NFC first, then each changing row's own NFC form.
  const holder = new Map<string, string>();
  for (const sibling of siblings) if (sibling.name.normalize('NFC') === sibling.name) holder.set(sibling.name, sibling.id);
  for (const row of rows) {
    const normal = row.name.normalize('NFC');
    if (!holder.has(normal)) holder.set(normal, row.id);
  }
  const names = new Map<string, string>();
  for (const row of rows) {
    const normal = row.name.normalize('NFC');
    if (holder.get(normal) === row.id) {
      names.set(row.id, normal);
      continue;
    }
    const dot = row.folder === 1 ? -1 : normal.lastIndexOf('.');
    const [base, extension] = dot > 0 ? [normal.slice(0, dot), normal.slice(dot)] : [normal, ''];
    for (let n = 1; ; n += 1) {
      const suffix = ` (${n})${extension}`;
      const candidate = base.slice(0, Math.max(1, NAME_MAX - suffix.length)).trimEnd() + suffix;
      if (holder.has(candidate)) continue;
      holder.set(candidate, row.id);
      names.set(row.id, candidate);
      break;
    }
  }
  return names;
}
