import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { UsersTable } from '../../db/schema.js';

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;

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
    const result = await this.db
      .updateTable('users')
      .set({ otp_last_step: step })
      .where('id', '=', id)
      .where('otp_last_step', '<', step)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async list(): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().orderBy('created_at').execute();
  }

  async setStatus(id: string, status: string): Promise<void> {
    await this.db.updateTable('users').set({ status, updated_at: new Date().toISOString() }).where('id', '=', id).execute();
  }

  /** Changes the given columns of one account. */
  async update(id: string, patch: Partial<Pick<UserRow, 'name' | 'role' | 'role_level' | 'status' | 'approved' | 'profile_image'>>): Promise<void> {
    await this.db.updateTable('users').set({ ...patch, updated_at: new Date().toISOString() }).where('id', '=', id).execute();
  }

  /** Deletes an account; its sessions, keys, notifications, tasks and memberships go with it (foreign keys). */
  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('users').where('id', '=', id).execute();
  }

  /** MASTERs who can still sign in (ACTIVE), other than `exceptId`. */
  async countActiveMasters(exceptId: string): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('role', '=', 'MASTER')
      .where('status', '=', 'ACTIVE')
      .where('id', '!=', exceptId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Which of these (lower-case) emails are taken. */
  async takenEmails(emails: string[]): Promise<Set<string>> {
    const taken = new Set<string>();
    for (let i = 0; i < emails.length; i += 500) {
      const rows = await this.db.selectFrom('users').select('email').where('email', 'in', emails.slice(i, i + 500)).execute();
      for (const row of rows) taken.add(row.email);
    }
    return taken;
  }

  async findByIds(ids: string[]): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
  }

  /** Adds accounts and their group memberships in one transaction. */
  async insertWithGroups(rows: NewUserRow[], memberships: { user_id: string; group_id: string }[]): Promise<void> {
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 50) await trx.insertInto('users').values(rows.slice(i, i + 50)).execute();
      const members = memberships.map((m) => ({ ...m, created_at: now }));
      for (let i = 0; i < members.length; i += 200) await trx.insertInto('group_members').values(members.slice(i, i + 200)).execute();
    });
  }
}
