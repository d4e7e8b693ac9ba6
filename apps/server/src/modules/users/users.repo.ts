import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Database, UsersTable } from '../../db/schema.js';
import { holdSerialLock } from '../limits/serial-lock.repo.js';

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
/** The columns an administrator or the account itself may change. */
export type AccountPatch = Partial<Pick<UserRow, 'name' | 'role' | 'role_level' | 'status' | 'approved' | 'profile_image'>>;
/** Why a guarded account change was refused: no licence seat left, it would leave no ACTIVE MASTER, or the account is gone. */
export type AccountRefusal = 'no_seat' | 'last_master' | 'not_found';
/** Work that must commit with an account change (its audit record), run last in its transaction. */
export type InAccountTransaction = (trx: Transaction<Database>) => Promise<void>;

/** Activations, deletions and status or role changes of accounts take this lock (seats, the last MASTER). */
const ACCOUNTS_LOCK = 'accounts';
const isActiveMaster = (user: { status: string; role: string }) => user.status === 'ACTIVE' && user.role === 'MASTER';

async function countActive(db: Kysely<Database>, exceptId?: string): Promise<number> {
  let query = db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 'ACTIVE');
  if (exceptId) query = query.where('id', '!=', exceptId);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** MASTERs who can still sign in (ACTIVE), other than `exceptId`. */
async function countActiveMasters(db: Kysely<Database>, exceptId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('role', '=', 'MASTER')
    .where('status', '=', 'ACTIVE')
    .where('id', '!=', exceptId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** SQL for accounts; the only place that reads or writes the users table. */
export class UsersRepo {
  constructor(private readonly db: Db) {}

  findById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(row: NewUserRow): Promise<void> {
    await this.db.insertInto('users').values(row).execute();
  }

  async recordLogin(id: string, at: string): Promise<void> {
    await this.db.updateTable('users').set({ last_login: at, updated_at: at }).where('id', '=', id).execute();
  }

  async setPassword(id: string, passwordHash: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, must_change_password: 0, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  async setLanguage(id: string, language: string): Promise<void> {
    await this.db.updateTable('users').set({ language, updated_at: new Date().toISOString() }).where('id', '=', id).execute();
  }

  async setMfa(id: string, mfa: string): Promise<void> {
    await this.db.updateTable('users').set({ mfa, updated_at: new Date().toISOString() }).where('id', '=', id).execute();
  }

  async setPendingOtpSecret(id: string, secret: string): Promise<void> {
    await this.db.updateTable('users').set({ otp_pending_secret: secret }).where('id', '=', id).execute();
  }

  async confirmOtpSecret(id: string, secret: string, step: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ otp_secret: secret, otp_pending_secret: null, otp_last_step: step, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /** Records the TOTP step just used; false when the same or a later step was used already (a replay). */
  async advanceOtpStep(id: string, step: number): Promise<boolean> {
    const result = await this.db.updateTable('users').set({ otp_last_step: step }).where('id', '=', id).where('otp_last_step', '<', step).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async list(): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().orderBy('created_at').execute();
  }

  async setStatus(id: string, status: string): Promise<void> {
    await this.db.updateTable('users').set({ status, updated_at: new Date().toISOString() }).where('id', '=', id).execute();
  }

  /** Changes the given columns of one account. */
  async update(id: string, patch: AccountPatch): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ ...patch, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /** Which of these (lower-case) emails are taken. */
  async takenEmails(emails: string[]): Promise<Set<string>> {
    const taken = new Set<string>();
    for (let i = 0; i < emails.length; i += 500) {
      const rows = await this.db
        .selectFrom('users')
        .select('email')
        .where('email', 'in', emails.slice(i, i + 500))
        .execute();
      for (const row of rows) taken.add(row.email);
    }
    return taken;
  }

  async findByIds(ids: string[]): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
  }

  /**
   * Adds accounts and their group memberships in one transaction, holding the accounts
   * lock: false (nothing added) when the ACTIVE ones among them would need more than
   * `seats` ACTIVE accounts in all.
   */
  async insertWithGroups(
    rows: NewUserRow[],
    memberships: { user_id: string; group_id: string }[],
    seats: number,
    also?: InAccountTransaction,
  ): Promise<boolean> {
    const now = new Date().toISOString();
    return this.db.transaction().execute(async (trx) => {
      await holdSerialLock(trx, ACCOUNTS_LOCK);
      const activating = rows.filter((row) => row.status === 'ACTIVE').length;
      if (activating > 0 && (await countActive(trx)) + activating > seats) return false;
      for (let i = 0; i < rows.length; i += 50)
        await trx
          .insertInto('users')
          .values(rows.slice(i, i + 50))
          .execute();
      const members = memberships.map((m) => ({ ...m, created_at: now }));
      for (let i = 0; i < members.length; i += 200)
        await trx
          .insertInto('group_members')
          .values(members.slice(i, i + 200))
          .execute();
      await also?.(trx);
      return true;
    });
  }

  /**
   * Changes an account under the accounts lock, so that the checks and the change are one
   * decision however many run at once: making it ACTIVE needs a free seat of `rules.seats`;
   * with `rules.keepActiveMaster`, the change may not leave no ACTIVE MASTER. Answers why
   * it was refused (nothing changed), or null when done.
   */
  async updateGuarded(
    id: string,
    patch: AccountPatch,
    rules: { seats?: number; keepActiveMaster: boolean },
    also?: InAccountTransaction,
  ): Promise<AccountRefusal | null> {
    return this.db.transaction().execute(async (trx) => {
      await holdSerialLock(trx, ACCOUNTS_LOCK);
      const current = await trx.selectFrom('users').select(['status', 'role']).where('id', '=', id).executeTakeFirst();
      if (!current) return 'not_found';
      if (patch.status === 'ACTIVE' && current.status !== 'ACTIVE' && rules.seats !== undefined && (await countActive(trx, id)) + 1 > rules.seats)
        return 'no_seat';
      const stays = { status: patch.status ?? current.status, role: patch.role ?? current.role };
      if (rules.keepActiveMaster && !isActiveMaster(stays) && isActiveMaster(current) && (await countActiveMasters(trx, id)) === 0) return 'last_master';
      await trx
        .updateTable('users')
        .set({ ...patch, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
      await also?.(trx);
      return null;
    });
  }

  /**
   * Deletes an account under the accounts lock; false (kept) when it is the last ACTIVE
   * MASTER. Its sessions, keys, notifications, tasks and memberships go with it (foreign keys).
   */
  async deleteUnlessLastMaster(id: string, also?: InAccountTransaction): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await holdSerialLock(trx, ACCOUNTS_LOCK);
      const current = await trx.selectFrom('users').select(['status', 'role']).where('id', '=', id).executeTakeFirst();
      if (current && isActiveMaster(current) && (await countActiveMasters(trx, id)) === 0) return false;
      await trx.deleteFrom('users').where('id', '=', id).execute();
      await also?.(trx);
      return true;
    });
  }
}
