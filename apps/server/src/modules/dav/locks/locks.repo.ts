import { type Kysely, type Selectable, sql } from 'kysely';
import type { DavLocksTable, Database } from '../../../db/schema.js';
import { holdSerialLock } from '../../limits/serial-lock.repo.js';
import type { DavLock } from './dav-locks.js';
import { ancestorsOf, rootSegment } from './lock-paths.js';

const toLock = (row: Selectable<DavLocksTable>): DavLock => ({
  token: row.token,
  path: row.path,
  depth: row.depth === '0' ? '0' : 'infinity',
  scope: row.scope === 'shared' ? 'shared' : 'exclusive',
  ownerXml: row.owner_xml,
  accountId: row.account_id,
  timeoutSeconds: row.timeout_seconds,
  createdAt: row.created_at,
  expiresAt: Number(row.expires_at),
});

/** SQL of the WebDAV locks (table dav_locks). Every read ignores locks expired at `now` (epoch ms). */
export class DavLocksRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The active locks rooted at `path` or at a folder above it, and with `below`, those rooted
   * under it too. (Whether an ancestor's lock reaches down is the caller's rule: its depth.)
   * Locks of accounts that are not ACTIVE (blocked) are left out: their owner can no longer use
   * them, so they would only stand in others' way.
   */
  async near(path: string, now: number, below: boolean, db: Kysely<Database> = this.db): Promise<DavLock[]> {
    const prefix = `${path}/`;
    const rows = await db
      .selectFrom('dav_locks')
      .innerJoin('users', 'users.id', 'dav_locks.account_id')
      .selectAll('dav_locks')
      .where('users.status', '=', 'ACTIVE')
      .where('dav_locks.root', '=', rootSegment(path))
      .where('dav_locks.expires_at', '>', now)
      .where((eb) => {
        const on = eb('dav_locks.path', 'in', [path, ...ancestorsOf(path)]);
        // substr counts characters on both databases; LIKE would need escaping and is case-blind on SQLite.
        return below ? eb.or([on, eb(sql`substr(dav_locks.path, 1, ${[...prefix].length})`, '=', prefix)]) : on;
      })
      .orderBy('dav_locks.created_at')
      .execute();
    return rows.map(toLock);
  }

  /**
   * Adds `lock` unless `conflicting` finds a conflict among the active locks near its path
   * (it gets them with those below): one transaction holding the root's serial lock, so two
   * requests on any number of processes cannot both take conflicting locks. Answers the
   * conflicting locks (nothing added) or [] (added).
   */
  async insertUnlessConflicting(lock: DavLock, now: number, conflicting: (near: DavLock[]) => DavLock[]): Promise<DavLock[]> {
    return this.db.transaction().execute(async (trx) => {
      await holdSerialLock(trx, `dav-locks:${rootSegment(lock.path)}`);
      const conflicts = conflicting(await this.near(lock.path, now, true, trx));
      if (conflicts.length > 0) return conflicts;
      await trx
        .insertInto('dav_locks')
        .values({
          token: lock.token,
          root: rootSegment(lock.path),
          path: lock.path,
          depth: lock.depth,
          scope: lock.scope,
          owner_xml: lock.ownerXml,
          account_id: lock.accountId,
          timeout_seconds: lock.timeoutSeconds,
          created_at: lock.createdAt,
          expires_at: lock.expiresAt,
        })
        .execute();
      return [];
    });
  }

  /** How many active locks an account holds. */
  async countActiveOf(accountId: string, now: number): Promise<number> {
    const row = await this.db
      .selectFrom('dav_locks')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('account_id', '=', accountId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** The active lock with this token, or undefined. */
  async findActive(token: string, now: number): Promise<DavLock | undefined> {
    const row = await this.db.selectFrom('dav_locks').selectAll().where('token', '=', token).where('expires_at', '>', now).executeTakeFirst();
    return row ? toLock(row) : undefined;
  }

  /** Gives an active lock a new timeout; false when it has expired or is gone meanwhile. */
  async extend(token: string, now: number, timeoutSeconds: number): Promise<boolean> {
    const result = await this.db
      .updateTable('dav_locks')
      .set({ timeout_seconds: timeoutSeconds, expires_at: now + timeoutSeconds * 1000 })
      .where('token', '=', token)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(token: string): Promise<void> {
    await this.db.deleteFrom('dav_locks').where('token', '=', token).execute();
  }

  /** Deletes the locks rooted at `path` or under it. */
  async deleteUnder(path: string): Promise<void> {
    const prefix = `${path}/`;
    await this.db
      .deleteFrom('dav_locks')
      .where('root', '=', rootSegment(path))
      .where((eb) => eb.or([eb('path', '=', path), eb(sql`substr(path, 1, ${[...prefix].length})`, '=', prefix)]))
      .execute();
  }

  /** Deletes locks that expired before `now` (housekeeping). */
  async purgeExpired(now: number): Promise<void> {
    await this.db.deleteFrom('dav_locks').where('expires_at', '<=', now).execute();
  }
}
