import { AUDIT_RETENTION_DEFAULT_YEARS, AUDIT_RETENTION_MAX_YEARS, AUDIT_RETENTION_MIN_YEARS } from '@bogwan/contracts';
import type { SettingsRepo } from '../settings/settings.repo.js';
import { SYSTEM_ACTOR } from './audit-context.js';
import type { AuditChainRepo } from './audit-chain.repo.js';
import { appendDigestLine } from './audit-digests.js';
import type { AuditRecorder } from './audit.recorder.js';

/** The settings key of the retention, in whole years. */
export const AUDIT_RETENTION_SETTING = 'audit.retention_years';
const PURGE_BATCH = 5000;

/**
 * How long the audit trail is kept (set by an administrator; default 2 years, at least 1),
 * and the purge of older records. The purge moves the chain's anchor with each batch it
 * deletes, writes the final anchor to the digest file, and records itself (`audit.purge`),
 * so the trail stays verifiable from the first kept record.
 */
export class AuditRetention {
  constructor(
    private readonly settings: SettingsRepo,
    private readonly chain: AuditChainRepo,
    private readonly recorder: AuditRecorder,
    private readonly digestFile: string,
  ) {}

  async years(): Promise<number> {
    const stored = await this.settings.get<number>(AUDIT_RETENTION_SETTING);
    if (typeof stored !== 'number' || !Number.isInteger(stored)) return AUDIT_RETENTION_DEFAULT_YEARS;
    return Math.min(AUDIT_RETENTION_MAX_YEARS, Math.max(AUDIT_RETENTION_MIN_YEARS, stored));
  }

  async setYears(years: number): Promise<void> {
    await this.settings.set(AUDIT_RETENTION_SETTING, years);
  }

  /** The moment before which records go: `years` calendar years before `now` (UTC). */
  static cutoff(now: Date, years: number): string {
    const cutoff = new Date(now.getTime());
    cutoff.setUTCFullYear(cutoff.getUTCFullYear() - years);
    return cutoff.toISOString();
  }

  /** Deletes the records older than the retention; answers how many went. */
  async apply(now = new Date()): Promise<number> {
    const before = AuditRetention.cutoff(now, await this.years());
    let removed = 0;
    let anchor: { anchorSeq: number; anchorHash: string } | undefined;
    for (;;) {
      const batch = await this.chain.purgeBatch(before, PURGE_BATCH);
      if (batch.removed === 0) break;
      removed += batch.removed;
      anchor = batch;
    }
    if (!anchor) return 0;
    appendDigestLine(this.digestFile, { kind: 'anchor', seq: anchor.anchorSeq, hash: anchor.anchorHash, at: now.toISOString() });
    await this.recorder.record({
      action: 'audit.purge',
      actor: SYSTEM_ACTOR,
      target: { kind: 'audit' },
      params: { before, removed, firstKeptSeq: anchor.anchorSeq },
      ip: null,
      userAgent: null,
    });
    return removed;
  }
}
