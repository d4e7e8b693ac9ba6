import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * Holds the lock named `name` until the transaction `trx` ends, for a check and the write
 * it allows (a seat count and an activation) that must not interleave with another's. The
 * lock is a write to one row, made first: PostgreSQL keeps that row locked until commit and
 * the next holder's statements see everything committed before it (READ COMMITTED takes a
 * snapshot per statement); SQLite takes its one write lock at the first write. Works on both
 * databases and across processes, with no dialect-specific SQL.
 */
export async function holdSerialLock(trx: Transaction<Database>, name: string): Promise<void> {
  const now = new Date().toISOString();
  await trx
    .insertInto('serial_locks')
    .values({ name, taken_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ taken_at: now }))
    .execute();
}
