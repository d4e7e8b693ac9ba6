import { sql } from 'kysely';
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
 */
export async function sealPlaintextSecrets(db: Db, box: SecretBox): Promise<number> {
  let sealed = 0;
  for (const { table, column, purpose } of SEALED_COLUMNS) {
    const rows = await sql<{ id: string; value: string }>`
      select ${sql.ref('id')} as id, ${sql.ref(column)} as value from ${sql.table(table)}
      where ${sql.ref(column)} is not null and ${sql.ref(column)} not like ${`${SEALED_PREFIX}%`}`.execute(db);
    for (const row of rows.rows) {
      const result = await sql`
        update ${sql.table(table)} set ${sql.ref(column)} = ${box.seal(purpose, row.value, row.id)}
        where ${sql.ref('id')} = ${row.id} and ${sql.ref(column)} = ${row.value}`.execute(db);
      sealed += Number(result.numAffectedRows ?? 0);
    }
  }
  return sealed;
}
