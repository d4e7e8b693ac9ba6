import type { Db } from '../../db/index.js';

/** SQL answering whether a backend still holds file contents (its location must then stay). */
export class StorageUseRepo {
  constructor(private readonly db: Db) {}

  /**
   * True while the backend has a blob row (referenced or awaiting collection), a file
   * (live or trashed), an upload in progress, or a running sync from or to it.
   */
  async holdsContents(backend: string): Promise<boolean> {
    const checks = [
      this.db.selectFrom('blobs').select('hash').where('backend', '=', backend).limit(1),
      this.db.selectFrom('nodes').select('id').where('backend', '=', backend).where('folder', '=', 0).limit(1),
      this.db.selectFrom('upload_sessions').select('id').where('backend', '=', backend).limit(1),
      this.db
        .selectFrom('storage_syncs')
        .select('id')
        .where('status', '=', 'running')
        .where((eb) => eb.or([eb('source', '=', backend), eb('target', '=', backend)]))
        .limit(1),
    ];
    for (const query of checks) if (await query.executeTakeFirst()) return true;
    return false;
  }
}
