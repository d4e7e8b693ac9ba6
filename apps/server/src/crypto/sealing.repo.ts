import { sql } from 'kysely';
import { isSqlite } from '../db/dialect.js';
import type { Db } from '../db/index.js';
import { SEALED_PREFIX, type SecretBox, type SecretPurpose } from './secret-box.js';

/** A column that holds a secret the server reads back, sealed per row. */
interface SealedColumn {
  table: 'users' | 'shares' | 'outgoing_webhooks';
  column: 'otp_secret' | 'otp_pending_secret' | 'key' | 'secret';
  purpose: SecretPurpose;
}

/** Every sealed column; a new one is added here and to the repo that reads it. */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'users', column: 'otp_secret', purpose: 'totp' },
  { table: 'users', column: 'otp_pending_secret', purpose: 'totp' },
  { table: 'shares', column: 'key', purpose: 'share-key' },
  { table: 'outgoing_webhooks', column: 'secret', purpose: 'webhook-secret' },
];

/**
 * Seals the secrets that rows written before sealing existed still hold in plain text.
 * Migrations cannot do it (they never import app code and do not know the server
 * secret), so this runs at every start-up: rows without the sealed prefix are sealed,
 * sealed ones are left alone. Each update is conditional on the plain value it read, so
 * two processes starting at once seal a row once. Answers how many values were sealed.
 *
 * On SQLite the plain values must not linger in the file either: the updates run with
 * `secure_delete` (freed space is zeroed) and a TRUNCATE checkpoint then writes the new
 * pages over the old ones and empties the WAL. (On PostgreSQL the old row versions stay in
 * the table files until vacuumed: docs/decisions.md says what to run after the upgrade.)
 */
export async function sealPlaintextSecrets(db: Db, box: SecretBox): Promise<number> {
  const plain = await Promise.all(SEALED_COLUMNS.map(async (target) => ({ ...target, rows: await plainValues(db, target) })));
  if (plain.every((target) => target.rows.length === 0)) return 0;
  const sqlite = isSqlite(db);
  if (sqlite) await sql`pragma secure_delete = on`.execute(db);
  try {
    return await seal(db, box, plain);
  } finally {
    if (sqlite) {
      await sql`pragma secure_delete = off`.execute(db);
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    }
  }
}

function plainValues(db: Db, { table, column }: SealedColumn) {
  return sql<{ id: string; value: string }>`
    select ${sql.ref('id')} as id, ${sql.ref(column)} as value from ${sql.table(table)}
    where ${sql.ref(column)} is not null and ${sql.ref(column)} not like ${`${SEALED_PREFIX}%`}`
    .execute(db)
    .then((result) => result.rows);
}

async function seal(db: Db, box: SecretBox, plain: (SealedColumn & { rows: { id: string; value: string }[] })[]): Promise<number> {
  let sealed = 0;
  for (const { table, column, purpose, rows } of plain) {
    for (const row of rows) {
      const result = await sql`
        update ${sql.table(table)} set ${sql.ref(column)} = ${box.seal(purpose, row.value, row.id)}
        where ${sql.ref('id')} = ${row.id} and ${sql.ref(column)} = ${row.value}`.execute(db);
      sealed += Number(result.numAffectedRows ?? 0);
    }
  }
  return sealed;
}
