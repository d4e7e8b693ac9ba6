import type { Insertable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { EventsTable } from '../../db/schema.js';
import { AuditRepo } from '../audit/audit.repo.js';

/**
 * @deprecated The activity log is the audit trail now (modules/audit). This keeps the
 * old `events` table written while the modules still call `EventsService.record`, so the
 * readers of `events` (the dashboard's counts) keep working until they read
 * `audit_records`; then it goes, with the table.
 */
export class EventsRepo extends AuditRepo {
  constructor(private readonly database: Db) {
    super(database);
  }

  async insertLegacy(row: Insertable<EventsTable>): Promise<void> {
    await this.database.insertInto('events').values(row).execute();
  }
}
