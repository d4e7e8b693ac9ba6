import type { TrashRetention } from '@bogwan/contracts';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { Caller } from '../files/files.service.js';
import type { SettingsRepo } from '../settings/settings.repo.js';
import type { TrashService } from './trash.service.js';

/** Settings key of the retention, in days (absent or null: kept until deleted by hand). */
export const TRASH_RETENTION_SETTING = 'trash.retention_days';
const DAY_MS = 86_400_000;

/** The trash retention rule: read, changed by administrators, applied by the housekeeping job. */
export class TrashRetentionService {
  constructor(
    private readonly settings: SettingsRepo,
    private readonly trash: TrashService,
    private readonly audit: AuditRecorder,
  ) {}

  async get(): Promise<TrashRetention> {
    return { days: (await this.settings.get<number | null>(TRASH_RETENTION_SETTING)) ?? null };
  }

  async set(caller: Caller, retention: TrashRetention): Promise<TrashRetention> {
    const before = await this.get();
    await this.settings.set(TRASH_RETENTION_SETTING, retention.days);
    await this.audit.record({
      action: 'settings.change',
      target: { kind: 'setting', id: TRASH_RETENTION_SETTING },
      params: { from: before.days, to: retention.days },
    });
    return retention;
  }

  /** Deletes the items older than the retention period; nothing while it is off. */
  async apply(now = new Date()): Promise<number> {
    const { days } = await this.get();
    if (days === null) return 0;
    return this.trash.expire(new Date(now.getTime() - days * DAY_MS).toISOString(), days);
  }
}
