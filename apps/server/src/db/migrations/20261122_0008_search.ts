import { type Kysely, sql } from 'kysely';
import { isSqlite } from '../dialect.js';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL, each with its own
// substring index: SQLite FTS5 with the trigram tokenizer, PostgreSQL pg_trgm.

export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = isSqlite(db);

  // Text of file contents, keyed by content hash: identical files (copies) share one row,
  // and a rename or a move changes nothing here (paths are resolved when searching).
  await db.schema
    .createTable('search_texts')
    .addColumn('seq', sqlite ? 'integer' : 'bigserial', (c) => c.primaryKey())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('truncated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  if (!sqlite) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index nodes_name_trgm on nodes using gin (name gin_trgm_ops)`.execute(db);
    await sql`create index search_texts_body_trgm on search_texts using gin (body gin_trgm_ops)`.execute(db);
    // Exact and prefix name matches by range, in byte order (the same order as SQLite's).
    await sql`create index nodes_name_lower on nodes ((lower(name) collate "C"))`.execute(db);
    // Two-character keywords (below any trigram): the distinct character pairs of each name
    // (computed by the database, so every rename is covered) and of each text (computed
    // when the text is extracted, see search-bigrams.ts).
    await sql`create function search_name_bigrams(name text) returns text[] language sql immutable parallel safe as $$
        select coalesce(array_agg(distinct substr(lower(name), i, 2)), '{}') from generate_series(1, char_length(name) - 1) as i
      $$`.execute(db);
    await sql`create index nodes_name_bigrams on nodes using gin (search_name_bigrams(name))`.execute(db);
    await sql`create table search_text_bigrams (
        seq bigint primary key references search_texts (seq) on delete cascade,
        grams text[] not null
      )`.execute(db);
    await sql`create index search_text_bigrams_grams on search_text_bigrams using gin (grams)`.execute(db);
    return;
  }

  // SQLite: trigram indexes over external content, kept in step by triggers.
  await sql`create virtual table search_texts_fts using fts5(body, content='search_texts', content_rowid='seq', tokenize='trigram')`.execute(db);
  await sql`create trigger search_texts_ai after insert on search_texts begin
      insert into search_texts_fts(rowid, body) values (new.seq, new.body);
    end`.execute(db);
  await sql`create trigger search_texts_ad after delete on search_texts begin
      insert into search_texts_fts(search_texts_fts, rowid, body) values ('delete', old.seq, old.body);
    end`.execute(db);
  await sql`create trigger search_texts_au after update of body on search_texts begin
      insert into search_texts_fts(search_texts_fts, rowid, body) values ('delete', old.seq, old.body);
      insert into search_texts_fts(rowid, body) values (new.seq, new.body);
    end`.execute(db);

  // Node names: mirrored into a table with an integer rowid by triggers on nodes, so
  // every way a node is added, renamed or deleted keeps the index right.
  await db.schema
    .createTable('search_names')
    .addColumn('seq', 'integer', (c) => c.primaryKey())
    .addColumn('node_id', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();
  await sql`create virtual table search_names_fts using fts5(name, content='search_names', content_rowid='seq', tokenize='trigram')`.execute(db);
  await sql`create trigger search_names_ai after insert on search_names begin
      insert into search_names_fts(rowid, name) values (new.seq, new.name);
    end`.execute(db);
  await sql`create trigger search_names_ad after delete on search_names begin
      insert into search_names_fts(search_names_fts, rowid, name) values ('delete', old.seq, old.name);
    end`.execute(db);
  await sql`create trigger search_names_au after update of name on search_names begin
      insert into search_names_fts(search_names_fts, rowid, name) values ('delete', old.seq, old.name);
      insert into search_names_fts(rowid, name) values (new.seq, new.name);
    end`.execute(db);
  await sql`create trigger nodes_search_ai after insert on nodes begin
      insert into search_names(node_id, name) values (new.id, new.name);
    end`.execute(db);
  await sql`create trigger nodes_search_au after update of name on nodes when old.name <> new.name begin
      update search_names set name = new.name where node_id = new.id;
    end`.execute(db);
  await sql`create trigger nodes_search_ad after delete on nodes begin
      delete from search_names where node_id = old.id;
    end`.execute(db);
  await sql`insert into search_names(node_id, name) select id, name from nodes order by id`.execute(db);

  // Exact and prefix name matches by range over the lower-cased name (covering: no table read).
  await sql`create index search_names_lower on search_names (lower(name), node_id)`.execute(db);

  // Two-character keywords (below any trigram): indexes of character pairs, rowids only
  // (detail=none), each pair written as the hex of its UTF-8 bytes so that no tokenizer
  // splits it. Names: the pairs are computed by triggers (offsets 1..4096 from a small
  // table, since triggers cannot use recursive queries). Texts: computed when the text is
  // extracted (search-bigrams.ts) and written with it; dropped with it by a trigger.
  await sql`create table search_name_offsets (i integer primary key)`.execute(db);
  await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 4096) insert into search_name_offsets select i from n`.execute(db);
  await sql`create virtual table search_name_bigrams using fts5(grams, content='', contentless_delete=1, detail='none', tokenize='ascii')`.execute(db);
  await sql`create trigger search_names_bigrams_ai after insert on search_names begin
      insert into search_name_bigrams(rowid, grams)
        select new.seq, coalesce(group_concat(hex(substr(lower(new.name), i, 2)), ' '), '') from search_name_offsets where i < length(new.name);
    end`.execute(db);
  await sql`create trigger search_names_bigrams_ad after delete on search_names begin
      delete from search_name_bigrams where rowid = old.seq;
    end`.execute(db);
  await sql`create trigger search_names_bigrams_au after update of name on search_names begin
      delete from search_name_bigrams where rowid = old.seq;
      insert into search_name_bigrams(rowid, grams)
        select new.seq, coalesce(group_concat(hex(substr(lower(new.name), i, 2)), ' '), '') from search_name_offsets where i < length(new.name);
    end`.execute(db);
  await sql`insert into search_name_bigrams(rowid, grams)
      select s.seq, coalesce((select group_concat(hex(substr(lower(s.name), o.i, 2)), ' ') from search_name_offsets o where o.i < length(s.name)), '')
      from search_names s`.execute(db);

  await sql`create virtual table search_text_bigrams using fts5(grams, content='', contentless_delete=1, detail='none', tokenize='ascii')`.execute(db);
  await sql`create trigger search_texts_bigrams_ad after delete on search_texts begin
      delete from search_text_bigrams where rowid = old.seq;
    end`.execute(db);
}
