import { type AuditExportQuery, type Locale, apiCalls } from '@bogwan/contracts';
import { useMutation } from '@tanstack/react-query';
import { startDownload } from '../../../api/browser-download';
import { callApi } from '../../../api/client';
import type { AuditFilterQuery } from '../lib/audit-filter';

export type AuditExportFormat = AuditExportQuery['format'];

/** The export's query for a filter: format, language and the screen's filters. */
export function exportQuery(filter: AuditFilterQuery, format: AuditExportFormat, lang: Locale): Record<string, string> {
  const query: Record<string, string> = { format, lang };
  for (const [name, value] of Object.entries(filter)) if (value) query[name] = value;
  return query;
}

/** The export's address for a filter: `/event/export?format&lang&<filters>` (under /api). */
export function exportPath(filter: AuditFilterQuery, format: AuditExportFormat, lang: Locale): string {
  return `/event/export?${new URLSearchParams(exportQuery(filter, format, lang))}`;
}

/**
 * POST /api/event/export/ticket, then GET the single-use address it answers: the filtered
 * rows as CSV (UTF-8 with BOM, formula-safe) or JSON lines, in the reader's language. The
 * ticket call carries the bearer token; the address carries only a one-minute, single-use
 * ticket bound to the account and this filter, so the browser's download manager streams
 * the file to disk (nothing is held in the page's memory).
 */
export async function exportEvents(filter: AuditFilterQuery, format: AuditExportFormat, lang: Locale): Promise<void> {
  const { url } = await callApi(apiCalls.event_export_ticket, { query: exportQuery(filter, format, lang) });
  startDownload(url);
}

export function useExportEvents() {
  return useMutation({
    mutationFn: ({ filter, format, lang }: { filter: AuditFilterQuery; format: AuditExportFormat; lang: Locale }) => exportEvents(filter, format, lang),
  });
}
