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

  /** Refuses every access token issued so far to this user. */
  async bumpTokenVersion(id: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set((eb) => ({ token_version: eb('token_version', '+', 1), updated_at: new Date().toISOString() }))
      .where('id', '=', id)
      .execute();
  }
}
