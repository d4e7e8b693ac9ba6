import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/index.js';
import { SettingsRepo } from '../settings/settings.repo.js';

/** The settings key holding this installation's id. */
export const INSTALLATION_ID_SETTING = 'installation.id';

/**
 * The id of this installation (one database = one installation), created on first use.
 * Every process sharing the database answers the same id, even when several start at
 * once: the row is inserted with ON CONFLICT DO NOTHING and read back, so the first
 * insert wins and the others read it. An installation upgraded from a version without
 * the id gets one the same way on its first start.
 */
export async function installationId(db: Db): Promise<string> {
  return new SettingsRepo(db).getOrInsert(INSTALLATION_ID_SETTING, randomUUID());
}
