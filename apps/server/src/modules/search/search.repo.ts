import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { NodeRow } from '../files/ports.js';
import { isSqlite } from '../../db/dialect.js';
import { bigramToken, keywordBigram, textBigrams } from './search-bigrams.js';
import { SNIPPET_BEFORE, SNIPPET_LENGTH } from './search-snippet.js';

/** Trigram indexes need at least three characters; two-character keywords use the character-pair indexes. */
export const TRIGRAM_MIN = 3;
const MAX_DEPTH = 1000;
/** SQLite: how many of the newest substring matches of a name are ranked at least. */
const NAME_WINDOW = 500;
/** How many rows of a name tier's range are read in index order at least, to tell a frequent keyword from a rare one. */
const PROBE_MIN = 2000;
/** PostgreSQL: how many of the newest texts are checked for a pair before the index is asked. */
const PAIR_WINDOW = 1000;

/** Ids (UUIDv7 text) newest first; they compare the same as bytes and as JavaScript strings. */
function byIdDesc(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

export interface NodeFilters {
  /** Modified at or after / at or before (ISO text, compared as text). */
  from?: string;
  to?: string;
  /** true: folders only; false: files only. */
  folder?: boolean;
}

/** Where a live node lies: its absolute path, and whether it is inside a locked (secure) folder or is one. */
export interface Place {
  path: string;
  locked: boolean;
}

/** A file whose text is still to be extracted. */
export interface PendingFile {
  id: string;
  name: string;
  size: number;
  content_hash: string;
  backend: string;
  blob_key: string;
  owner_id: string | null;
}

export interface TextRow {
  hash: string;
  status: 'indexed' | 'skipped' | 'failed';
  body: string;
  truncated: boolean;
}

/**
 * SQL of search: the trigram indexes (SQLite FTS5, PostgreSQL pg_trgm), the character-pair
 * indexes for two-character keywords, the extracted texts, and the live paths of matches.
 * Keywords are always bound parameters; on SQLite the keyword becomes one quoted FTS5
 * phrase (or a hex pair token), so FTS syntax in it is plain text.
 */
export class SearchRepo {
  private readonly sqlite: boolean;

  constructor(private readonly db: Kysely<Database>) {
    this.sqlite = isSqlite(db);
  }

  /**
   * Up to `want` live nodes whose name holds `keyword` (case-insensitive), best first: the
   * whole name, then names starting with it, then the rest; newest (highest id) first within
   * each. The tiers are read one after another and only as far as needed. The whole-name and
   * prefix tiers are exact, at a cost bounded by the size of the installation rather than by
   * the number of matches (see `prefixTier`); the rest come from the substring index, newest
   * first with LIMIT, so a keyword in nearly every name costs no more than a rare one. On
   * SQLite the substring index answers in the order names were indexed (creation order, as
   * ids are), so there the newest max(2 × `want`, NAME_WINDOW) of those are ranked by id.
   */
  async nameMatches(keyword: string, filters: NodeFilters, want: number): Promise<NodeRow[]> {
    return this.sqlite ? this.sqliteNameMatches(keyword, filters, want) : this.postgresNameMatches(keyword, filters, want);
  }

  /** PostgreSQL: the filters are in every statement, so each tier answers exactly what it is asked for, or all it has. */
  private async postgresNameMatches(keyword: string, filters: NodeFilters, want: number): Promise<NodeRow[]> {
    const lowered = sql`(lower(${keyword}) collate "C")`;
    const upper = sql`((lower(${keyword}) || chr(1114111)) collate "C")`;
    const where = sql.join([sql`n.trash_key = ''`, ...this.nodeConditions(filters)], sql` and `);
    // The name index's expression, and the same value in a form no index matches (for walks of the primary key).
    const key = sql`(lower(n.name) collate "C")`;
    const plain = sql`((lower(n.name) || '') collate "C")`;
    const total = await this.postgresTotal();
    const found: NodeRow[] = [];
    const tiers = [
      { indexed: sql`${key} = ${lowered}`, checked: sql`${plain} = ${lowered}` },
      { indexed: sql`${key} > ${lowered} and ${key} < ${upper}`, checked: sql`${plain} > ${lowered} and ${plain} < ${upper}` },
    ];
    for (const { indexed, checked } of tiers) {
      const need = want - found.length;
      const { rows } = await this.prefixTier(total, need, {
        // The planner's estimate of the range (from the name index's statistics): counting it
        // would read a heap row per index entry, pages spread over the whole table.
        probe: async () => {
          const plan = await sql<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>`explain (format json) select 1 from nodes n where ${indexed}`.execute(
            this.db,
          );
          return Number(plan.rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0);
        },
        // The newest `budget` nodes by the primary key (the window's order carries through), checked row by row.
        walk: async (budget, limit) => {
          const rows = await sql<NodeRow>`select n.* from (select * from nodes order by id desc limit ${budget}) n
            where ${checked} and ${where} order by n.id desc limit ${limit}`.execute(this.db);
          return { rows: rows.rows, whole: false };
        },
        // Fenced (offset 0): the range first, then the sort; never a walk of the whole table.
        sorted: (limit) => sql<NodeRow>`select * from (select n.* from nodes n where ${indexed} and ${where} offset 0) r order by r.id desc limit ${limit}`,
      });
      found.push(...rows);
      if (found.length >= want) return found.slice(0, want);
    }
    const contains =
      [...keyword].length < TRIGRAM_MIN
        ? sql`search_name_bigrams(n.name) @> array[lower(${keyword})] and strpos(lower(n.name), lower(${keyword})) > 0`
        : sql`n.name ilike ${`%${escapeLike(keyword)}%`}`;
    // Ids are UUIDv7 text of one fixed shape: every collation orders them as bytes, so the primary key index serves.
    const rest = await sql<NodeRow>`select n.* from nodes n where ${contains} and not (${key} >= ${lowered} and ${key} < ${upper}) and ${where}
      order by n.id desc limit ${want - found.length}`.execute(this.db);
    return [...found, ...rest.rows];
  }

  /** PostgreSQL's estimate of the number of nodes (0 before the table was first analysed). */
  private async postgresTotal(): Promise<number> {
    const result = await sql<{ n: number }>`select greatest(reltuples, 0)::float8 as n from pg_class where oid = 'nodes'::regclass`.execute(this.db);
    return Number(result.rows[0]?.n ?? 0);
  }

  /**
   * One exact tier (whole name, or names starting with the keyword), newest first: `limit`
   * rows of it, or all it has (`complete`). Reading the name index's range and sorting it by id
   * costs as many rows as the keyword has matches (50,000 at a million names for a word that
   * starts 1 name in 20); walking the nodes newest first until `limit` match costs about
   * `limit` × total ÷ matches. So the range is first counted up to `probe` =
   * max(PROBE_MIN, √(`limit` × total)) rows (SQLite: from the covering index alone;
   * PostgreSQL: the planner's estimate, since counting would fetch a heap row per entry):
   * fewer than that are all the matches, read from the range and sorted; a full count means
   * the keyword is frequent, and the walk newest first is cheap. Both then cost about `probe`
   * rows at most. The walk is bounded to the newest `budget` nodes (4 × what it costs when the
   * matches are exactly `probe` and spread evenly); matches crowded among old nodes, which it
   * does not reach, are read from the range and sorted, as before.
   */
  private async prefixTier<Row>(
    total: number,
    limit: number,
    q: {
      /** How many rows the range holds, counted up to `limit` (or estimated). */
      probe: (limit: number) => Promise<number>;
      /** Matches among the newest `budget` nodes, newest first, up to `limit`; `whole`: those were all the nodes. */
      walk: (budget: number, limit: number) => Promise<{ rows: Row[]; whole: boolean }>;
      sorted: (limit: number) => RawBuilder<Row>;
    },
  ): Promise<{ rows: Row[]; complete: boolean }> {
    const probe = Math.max(PROBE_MIN, Math.ceil(Math.sqrt(limit * total)));
    const probed = await q.probe(probe);
    if (probed >= probe) {
      const budget = Math.ceil((4 * limit * Math.max(total, probe)) / probe);
      const walked = await q.walk(budget, limit);
      if (walked.rows.length === limit || walked.whole) return { rows: walked.rows, complete: walked.rows.length < limit };
    }
    const sorted = (await q.sorted(limit).execute(this.db)).rows;
    return { rows: sorted, complete: sorted.length < limit };
  }

  /**
   * SQLite: the tiers read `search_names` in rank order and join each candidate's node row in
   * the same statement, with the filters, so a statement stops as soon as it has as many
   * shown rows as are still wanted: trashed nodes or nodes the filters leave out are passed
   * over inside the statement instead of ending a round early. The rest (substring matches)
   * is ranked from a window of the newest index entries; only when the filters leave too few
   * of a full window is it read again, with a window four times larger.
   */
  private async sqliteNameMatches(keyword: string, filters: NodeFilters, want: number): Promise<NodeRow[]> {
    const lowered = sql`lower(${keyword})`;
    const upper = sql`lower(${keyword}) || char(1114111)`;
    // Names starting with the keyword, not equal to it: a range of search_names_lower.
    const range = sql`lower(s.name) > ${lowered} and lower(s.name) < ${upper}`;
    const short = [...keyword].length < TRIGRAM_MIN;
    const match = short ? sql`search_name_bigrams match hex(${lowered})` : sql`search_names_fts match ${ftsPhrase(keyword)}`;
    const index = short ? sql`search_name_bigrams` : sql`search_names_fts`;
    const where = sql.join([sql`n.trash_key = ''`, ...this.nodeConditions(filters)], sql` and `);
    // `cross join` keeps search_names the outer loop: its index gives the rank order.
    const shown = (from: RawBuilder<unknown>, condition: RawBuilder<unknown>, limit: number) =>
      sql<NodeRow>`select n.* from ${from} cross join nodes n on n.id = s.node_id where ${condition} and ${where} order by s.node_id desc limit ${limit}`;
    const total = Number((await sql<{ n: number | null }>`select max(seq) as n from search_names`.execute(this.db)).rows[0]?.n ?? 0);
    // Equality on the first column of (lower(name), node_id): newest first straight from the index.
    const found = (await shown(sql`search_names s`, sql`lower(s.name) = ${lowered}`, want).execute(this.db)).rows;
    if (found.length >= want) return found;
    const { rows: starting } = await this.prefixTier(total, want - found.length, {
      probe: async (probe) =>
        Number(
          (await sql<{ n: number }>`select count(*) as n from (select 1 from search_names s where ${range} limit ${probe})`.execute(this.db)).rows[0]?.n ?? 0,
        ),
      // The node_id index, newest first, down to the id `budget` rows below the newest; the name range checked on each row.
      walk: async (budget, count) => {
        const floor = await sql<{ node_id: string }>`select node_id from search_names order by node_id desc limit 1 offset ${budget}`.execute(this.db);
        const bound = floor.rows[0]?.node_id;
        const newest = bound === undefined ? range : sql`s.node_id >= ${bound} and ${range}`;
        const rows = await shown(sql`search_names s indexed by sqlite_autoindex_search_names_1`, newest, count).execute(this.db);
        return { rows: rows.rows, whole: bound === undefined };
      },
      sorted: (count) => shown(sql`search_names s`, range, count),
    });
    found.push(...starting);
    if (found.length >= want) return found;
    // The rest: the newest `window` substring matches by index order, those outside the first two tiers, by id.
    for (let window = Math.max(want * 2, NAME_WINDOW); ; window *= 4) {
      const rows = await sql<{ node_id: string; rest: number }>`select s.node_id,
          not (lower(s.name) >= ${lowered} and lower(s.name) < ${upper}) ${short ? sql`and instr(lower(s.name), ${lowered}) > 0` : sql``} as rest
        from (select rowid from ${index} where ${match} order by rowid desc limit ${window}) f join search_names s on s.seq = f.rowid`.execute(this.db);
      const candidates = rows.rows
        .filter((row) => Number(row.rest) === 1)
        .map((row) => row.node_id)
        .sort(byIdDesc);
      const rest: NodeRow[] = [];
      const need = want - found.length;
      for (let at = 0; at < candidates.length && rest.length < need; at += need) {
        const chunk = candidates.slice(at, at + need);
        const nodes = await sql<NodeRow>`select n.* from nodes n where n.id in (${sql.join(chunk)}) and ${where}`.execute(this.db);
        const byId = new Map(nodes.rows.map((row) => [row.id, row]));
        for (const id of chunk) if (byId.has(id)) rest.push(byId.get(id)!);
      }
      // Enough, or every substring match was in the window: done. Otherwise the filters left too few of a full window.
      if (rest.length >= need || rows.rows.length < window) return [...found, ...rest.slice(0, need)];
    }
  }

  /** Content hashes whose text holds `keyword`, most recently indexed first. */
  async contentMatches(keyword: string, skip: number, limit: number): Promise<string[]> {
    const short = [...keyword].length < TRIGRAM_MIN;
    if (short && !this.sqlite) return this.postgresPairMatches(keywordBigram(keyword), skip, limit);
    const query = !this.sqlite
      ? sql<{ hash: string }>`select t.hash from search_texts t where t.status = 'indexed' and t.body ilike ${`%${escapeLike(keyword)}%`}
          order by t.seq desc limit ${limit} offset ${skip}`
      : short
        ? sql<{ hash: string }>`select t.hash from search_text_bigrams b join search_texts t on t.seq = b.rowid
            where search_text_bigrams match ${`"${bigramToken(keywordBigram(keyword))}"`} order by b.rowid desc limit ${limit} offset ${skip}`
        : sql<{ hash: string }>`select t.hash from search_texts_fts f join search_texts t on t.seq = f.rowid
            where search_texts_fts match ${ftsPhrase(keyword)} order by f.rowid desc limit ${limit} offset ${skip}`;
    return (await query.execute(this.db)).rows.map((row) => row.hash);
  }

  /**
   * PostgreSQL, two-character keywords: the planner cannot tell a pair held by no text from
   * a common one (both are "not among the most common elements"), and a wrong guess walks
   * every row. So the newest PAIR_WINDOW texts are checked first (a common pair is answered
   * there), and only when they hold too few is the GIN index asked for all matches.
   */
  private async postgresPairMatches(pair: string, skip: number, limit: number): Promise<string[]> {
    const newest = await sql<{ hash: string }>`select t.hash from (select seq, grams from search_text_bigrams order by seq desc limit ${PAIR_WINDOW}) b
      join search_texts t on t.seq = b.seq where b.grams @> array[${pair}]::text[] order by b.seq desc limit ${skip + limit}`.execute(this.db);
    if (newest.rows.length === skip + limit) return newest.rows.slice(skip).map((row) => row.hash);
    const all = await sql<{ hash: string }>`select t.hash from (select seq from search_text_bigrams where grams @> array[${pair}]::text[] offset 0) b
      join search_texts t on t.seq = b.seq order by b.seq desc limit ${limit} offset ${skip}`.execute(this.db);
    return all.rows.map((row) => row.hash);
  }

  /** Live files with one of these contents, in the order of `hashes`, newest first per hash. */
  async filesWithContent(hashes: string[], filters: NodeFilters): Promise<NodeRow[]> {
    if (hashes.length === 0) return [];
    const where = sql.join(
      [sql`n.trash_key = ''`, sql`n.folder = 0`, sql`n.content_hash in (${sql.join(hashes)})`, ...this.nodeConditions(filters)],
      sql` and `,
    );
    const result = await sql<NodeRow>`select n.* from nodes n where ${where}`.execute(this.db);
    const order = new Map(hashes.map((hash, i) => [hash, i]));
    return result.rows.sort((a, b) => order.get(a.content_hash!)! - order.get(b.content_hash!)! || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  }

  /**
   * The passage around the first occurrence of `keyword` in each text (its start when the case
   * differs beyond ASCII), and whether it was cut out of the middle (the text goes on before it).
   */
  async snippets(hashes: string[], keyword: string): Promise<Map<string, { passage: string; cut: boolean }>> {
    if (hashes.length === 0) return new Map();
    const at = this.sqlite ? sql`instr(lower(body), lower(${keyword}))` : sql`strpos(lower(body), lower(${keyword}))`;
    const start = this.sqlite ? sql`max(1, ${at} - ${SNIPPET_BEFORE})` : sql`greatest(1, ${at} - ${SNIPPET_BEFORE})`;
    const result = await sql<{
      hash: string;
      snippet: string;
      start: number | string;
    }>`select hash, substr(body, ${start}, ${SNIPPET_LENGTH}) as snippet, ${start} as start
      from search_texts where hash in (${sql.join(hashes)})`.execute(this.db);
    return new Map(result.rows.map((row) => [row.hash, { passage: row.snippet, cut: Number(row.start) > 1 }]));
  }

  /**
   * Where the given nodes lie, for those that are live (neither they nor a folder above
   * them is in the trash): the absolute path, and whether the node or a folder above it is
   * locked (a secure folder). Nodes that are not live are left out.
   */
  async livePlaces(ids: string[]): Promise<Map<string, Place>> {
    const places = new Map<string, Place>();
    if (ids.length === 0) return places;
    const result = await sql<{ start_id: string; parent_id: string; name: string; trash_key: string; lock: number; depth: number }>`
      with recursive chain(start_id, id, parent_id, name, trash_key, lock, depth) as (
        select id, id, parent_id, name, trash_key, lock, 0 from nodes where id in (${sql.join(ids)})
        union all
        select c.start_id, n.id, n.parent_id, n.name, n.trash_key, n.lock, c.depth + 1
        from nodes n join chain c on n.id = c.parent_id
        where c.depth < ${MAX_DEPTH}
      )
      select start_id, parent_id, name, trash_key, lock, depth from chain`.execute(this.db);
    const chains = new Map<string, { parent_id: string; name: string; trash_key: string; lock: number; depth: number }[]>();
    for (const link of result.rows) {
      const chain = chains.get(link.start_id) ?? [];
      chain.push({ ...link, lock: Number(link.lock), depth: Number(link.depth) });
      chains.set(link.start_id, chain);
    }
    for (const [id, chain] of chains) {
      chain.sort((a, b) => a.depth - b.depth);
      if (chain.every((link) => link.trash_key === '') && chain.at(-1)?.parent_id === '') {
        places.set(id, {
          path: `/${chain
            .map((link) => link.name)
            .reverse()
            .join('/')}`,
          locked: chain.some((link) => link.lock === 1),
        });
      }
    }
    return places;
  }

  /**
   * Live files whose content has no text row yet, among the next `scan` nodes by id after
   * `after` (`''`: from the first); `next` is the id to go on after, undefined once the
   * window reached the last node. A sweep walks the table window by window: each statement
   * looks at `scan` nodes at most, so a sweep of a million files, nearly all indexed, no
   * longer holds SQLite's connection (and the event loop) for one scan of every node.
   */
  async pendingFiles(after: string, scan: number): Promise<{ files: PendingFile[]; next: string | undefined }> {
    const bound = await this.db
      .selectFrom('nodes')
      .select('id')
      .where('id', '>', after)
      .orderBy('id')
      .limit(1)
      .offset(scan - 1)
      .executeTakeFirst();
    let query = this.db
      .selectFrom('nodes')
      .leftJoin('search_texts', 'search_texts.hash', 'nodes.content_hash')
      .select(['nodes.id', 'nodes.name', 'nodes.size', 'nodes.content_hash', 'nodes.backend', 'nodes.blob_key', 'nodes.owner_id'])
      .where('nodes.id', '>', after)
      .where('search_texts.hash', 'is', null)
      .where('nodes.folder', '=', 0)
      .where('nodes.trash_key', '=', '')
      .where('nodes.content_hash', 'is not', null)
      .where('nodes.blob_key', 'is not', null);
    if (bound) query = query.where('nodes.id', '<=', bound.id);
    const files = (await query.orderBy('nodes.id').execute()) as PendingFile[];
    return { files, next: bound?.id };
  }

  /** Which of these hashes already have a text row. */
  async knownHashes(hashes: string[]): Promise<Set<string>> {
    if (hashes.length === 0) return new Set();
    const rows = await this.db.selectFrom('search_texts').select('hash').where('hash', 'in', hashes).execute();
    return new Set(rows.map((row) => row.hash));
  }

  /**
   * Stores the texts of contents, with the character pairs of each indexed text, in one
   * transaction (one committed write per indexing round, not per file); a row another
   * process stored first is kept.
   */
  async saveTexts(rows: TextRow[]): Promise<void> {
    if (rows.length === 0) return;
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      const stored = await trx
        .insertInto('search_texts')
        .values(rows.map((row) => ({ hash: row.hash, status: row.status, body: row.body, truncated: row.truncated ? 1 : 0, updated_at: now })))
        .onConflict((oc) => oc.column('hash').doNothing())
        .returning(['seq', 'hash'])
        .execute();
      const indexed = new Map(rows.filter((row) => row.status === 'indexed').map((row) => [row.hash, row.body]));
      const pairs = stored.flatMap(({ seq, hash }) => {
        const grams = textBigrams(indexed.get(hash) ?? '');
        return grams.length > 0 ? [{ seq, grams }] : [];
      });
      if (pairs.length === 0) return;
      const values = pairs.map(({ seq, grams }) => (this.sqlite ? sql`(${seq}, ${grams.map(bigramToken).join(' ')})` : sql`(${seq}, ${grams})`));
      await sql`insert into search_text_bigrams(${sql.raw(this.sqlite ? 'rowid' : 'seq')}, grams) values ${sql.join(values)}`.execute(trx);
    });
  }

  async textOf(hash: string): Promise<{ status: string; length: number; truncated: boolean } | undefined> {
    const row = await this.db
      .selectFrom('search_texts')
      .select(['status', 'truncated', sql<number>`length(body)`.as('length')])
      .where('hash', '=', hash)
      .executeTakeFirst();
    return row ? { status: row.status, length: Number(row.length), truncated: row.truncated === 1 } : undefined;
  }

  /** Drops texts no node refers to any more (their files were deleted for good). */
  async deleteOrphanTexts(): Promise<number> {
    const result = await this.db
      .deleteFrom('search_texts')
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('nodes').select('nodes.id').whereRef('nodes.content_hash', '=', 'search_texts.hash'))))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private nodeConditions(filters: NodeFilters) {
    const conditions = [];
    if (filters.from) conditions.push(sql`n.mtime >= ${filters.from}`);
    if (filters.to) conditions.push(sql`n.mtime <= ${filters.to}`);
    if (filters.folder !== undefined) conditions.push(sql`n.folder = ${filters.folder ? 1 : 0}`);
    return conditions;
  }
}

/** The keyword as one FTS5 phrase: inside double quotes, a double quote is doubled; nothing else is special. */
export function ftsPhrase(keyword: string): string {
  return `"${keyword.replace(/"/g, '""')}"`;
}

/** The keyword for LIKE with PostgreSQL's default escape character (backslash). */
export function escapeLike(keyword: string): string {
  return keyword.replace(/[\\%_]/g, (c) => `\\${c}`);
}
