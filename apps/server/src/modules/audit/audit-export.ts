import { type AuditExportQuery, type AuditRecord, auditActionName } from '@bogwan/contracts';
import { csvLine, UTF8_BOM } from '../access-log/csv.js';
import type { AuditRepo, AuditRepoFilter } from './audit.repo.js';
import { toAuditResponse } from './audit.service.js';

/** Rows read from the database per step of an export. */
export const AUDIT_EXPORT_PAGE = 500;

const HEADERS: Record<AuditExportQuery['lang'], string[]> = {
  ko: [
    '번호',
    '시각',
    '행위자 유형',
    '행위자',
    '계정 이름',
    '계정 이메일',
    '동작',
    '동작 이름',
    '결과',
    '사유',
    '대상 유형',
    '대상 ID',
    '경로',
    '대상 이름',
    '세부 정보',
    'IP 주소',
    '사용자 에이전트',
  ],
  en: [
    'Seq',
    'Time',
    'Actor kind',
    'Actor',
    'Account name',
    'Account e-mail',
    'Action',
    'Action name',
    'Outcome',
    'Reason',
    'Target kind',
    'Target id',
    'Path',
    'Target name',
    'Details',
    'IP address',
    'User agent',
  ],
};

function csvRow(r: AuditRecord, lang: AuditExportQuery['lang']): string {
  return csvLine([
    r.seq,
    r.createdAt,
    r.actor.kind,
    r.actor.label ?? r.actor.id,
    r.actor.name,
    r.actor.email,
    r.action,
    auditActionName(r.action, lang),
    r.outcome,
    r.reason,
    r.target?.kind,
    r.target?.id,
    r.target?.path,
    r.target?.label,
    JSON.stringify(r.params),
    r.ip,
    r.userAgent,
  ]);
}

/**
 * The export of every matching record, newest first, as text chunks (one per page read):
 * CSV (UTF-8 with BOM, formula-safe cells, headers in the asked language) or JSON lines
 * (one record per line, as the list answers it, plus `actionName`). Action names come from the
 * contract's AUDIT_ACTION_NAMES, the same the activity screens show. The caller streams it with backpressure,
 * so a page is read only when the previous one has gone out.
 */
export async function* auditExportChunks(
  repo: AuditRepo,
  filter: AuditRepoFilter,
  format: AuditExportQuery['format'],
  lang: AuditExportQuery['lang'],
): AsyncGenerator<string> {
  if (format === 'csv') yield UTF8_BOM + csvLine(HEADERS[lang]);
  for await (const rows of repo.stream(filter, AUDIT_EXPORT_PAGE)) {
    const records = rows.map(toAuditResponse);
    yield format === 'csv'
      ? records.map((r) => csvRow(r, lang)).join('')
      : records.map((r) => `${JSON.stringify({ ...r, actionName: auditActionName(r.action, lang) })}\n`).join('');
  }
}

/** The download's file name: `audit-<UTC time>.<ext>`. */
export function auditExportFileName(format: AuditExportQuery['format'], now = new Date()): string {
  return `audit-${now.toISOString().replace(/[:.]/g, '-')}.${format}`;
}
