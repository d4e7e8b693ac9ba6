import type { Db } from '../../db/index.js';

/** SQL for the key/value settings table. Values are JSON text. */
export class SettingsRepo {
  constructor(private readonly db: Db) {}

  async get<T>(key: string): Promise<T | undefined> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  /** Stores the value unless the key exists; answers the value that is stored afterwards. */
  async getOrInsert<T>(key: string, value: T): Promise<T> {
    await this.db
      .insertInto('settings')
      .values({ key, value: JSON.stringify(value), updated_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return (await this.get<T>(key)) as T;
  }

  /** Stores the value, replacing what the key held. */
  async set<T>(key: string, value: T): Promise<void> {
    const now = new Date().toISOString();
    await this.db
      .insertInto('settings')
      .values({ key, value: JSON.stringify(value), updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: now }))
      .execute();
  }

  async delete(key: string): Promise<void> {
    await this.db.deleteFrom('settings').where('key', '=', key).execute();
  }

  /** Deletes the keys starting with `prefix` last written before `before`. */
  async deleteOlderThan(prefix: string, before: string): Promise<void> {
    await this.db
      .deleteFrom('settings')
      .where('key', 'like', `${prefix.replace(/[%_\\]/g, '\\$&')}%`)
      .where('updated_at', '<', before)
      .execute();
  }
}
