import type { Db } from '../../db/index.js';

/** SQL for avatar images: shared by every server process through the database. */
export class AvatarsRepo {
  constructor(private readonly db: Db) {}

  /** Stores an image under its key; a key already stored keeps its image (keys are random). */
  async insert(key: string, image: Buffer): Promise<void> {
    await this.db
      .insertInto('avatars')
      .values({ key, image, created_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }

  async find(key: string): Promise<Buffer | null> {
    const row = await this.db.selectFrom('avatars').select('image').where('key', '=', key).executeTakeFirst();
    return row ? Buffer.from(row.image) : null;
  }

  async delete(key: string): Promise<void> {
    await this.db.deleteFrom('avatars').where('key', '=', key).execute();
  }
}
