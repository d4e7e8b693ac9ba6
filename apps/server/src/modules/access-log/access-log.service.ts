import { Readable } from 'node:stream';
import { ACCESS_LOG_EXPORT_MAX, type AccessLogEntry, type AccessLogFilter, type AccessLogPage } from '@bogwan/contracts';
import type { AccessLogRepo, AccessLogRow } from './access-log.repo.js';
import { UTF8_BOM, csvLine } from './csv.js';

/** Rows read per query while exporting. */
const EXPORT_BATCH = 1000;
const DAY_MS = 86_400_000;

/** Column headers of the exported file, in the order of `exportRow`. */
const EXPORT_HEADER = ['createdAt', 'ip', 'method', 'url', 'status', 'responseTimeMs', 'contentLength', 'userAgent', 'userId'];

export function toAccessLogEntry(row: AccessLogRow): AccessLogEntry {
  return {
    _id: row.id,
    createdAt: row.created_at,
    ip: row.ip,
    method: row.method,
    url: row.url,
    status: row.status,
    responseTime: Number(row.response_time_ms),
    contentLength: row.content_length === null ? null : Number(row.content_length),
    userAgent: row.user_agent,
    userId: row.user_id,
  };
}

function exportRow(row: AccessLogRow): string {
  const e = toAccessLogEntry(row);
  return csvLine([e.createdAt, e.ip, e.method, e.url, e.status, e.responseTime, e.contentLength, e.userAgent, e.userId]);
}

/** The system log as administrators read it: filtered pages, CSV export, retention by age. */
export class AccessLogService {
  constructor(
    private readonly repo: AccessLogRepo,
    private readonly retentionDays: number,
  ) {}

  async page(filter: AccessLogFilter, skip: number, limit: number): Promise<AccessLogPage> {
    const { rows, total } = await this.repo.search(filter, skip, limit);
    return { items: rows.map(toAccessLogEntry), total };
  }

  /**
   * The matching entries as CSV (UTF-8 with a byte order mark, formula-like cells
   * escaped), newest first, at most ACCESS_LOG_EXPORT_MAX rows, streamed batch by batch.
   */
  exportCsv(filter: AccessLogFilter): Readable {
    const repo = this.repo;
    async function* lines() {
      yield UTF8_BOM + csvLine(EXPORT_HEADER);
      for await (const rows of repo.matching(filter, EXPORT_BATCH, ACCESS_LOG_EXPORT_MAX)) {
        yield rows.map(exportRow).join('');
      }
    }
    return Readable.from(lines());
  }

  /** Deletes entries older than the retention period (housekeeping). */
  async applyRetention(now = new Date()): Promise<number> {
    return this.repo.deleteBefore(new Date(now.getTime() - this.retentionDays * DAY_MS).toISOString());
  }
}
