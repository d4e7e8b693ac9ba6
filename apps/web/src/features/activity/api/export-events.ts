import type { AuditExportQuery, Locale } from '@bogwan/contracts';
import { useMutation } from '@tanstack/react-query';
import { fetchWithSession } from '../../../api/fetch-with-session';
import type { AuditFilterQuery } from '../lib/audit-filter';

export type AuditExportFormat = AuditExportQuery['format'];

/** The export's address for a filter: `/event/export?format&lang&<filters>` (under /api). */
export function exportPath(filter: AuditFilterQuery, format: AuditExportFormat, lang: Locale): string {
  const query = new URLSearchParams({ format, lang });
  for (const [name, value] of Object.entries(filter)) if (value) query.set(name, value);
  return `/event/export?${query}`;
}

function fileName(response: Response, format: AuditExportFormat): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename\*=UTF-8''([^;]+)|filename="([^"]+)"/i.exec(disposition);
  const name = match?.[1] ? decodeURIComponent(match[1]) : match?.[2];
  return name || `activity.${format}`;
}

/**
 * GET /api/event/export: the filtered rows as CSV (UTF-8 with BOM, formula-safe) or JSON
 * lines, written by the server as a stream, in the reader's language. The call carries the
 * bearer token (never a token in the URL), and the answer is handed to the browser's
 * downloads as a file.
 */
export async function exportEvents(filter: AuditFilterQuery, format: AuditExportFormat, lang: Locale): Promise<void> {
  const response = await fetchWithSession(exportPath(filter, format, lang));
  const name = fileName(response, format);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function useExportEvents() {
  return useMutation({
    mutationFn: ({ filter, format, lang }: { filter: AuditFilterQuery; format: AuditExportFormat; lang: Locale }) => exportEvents(filter, format, lang),
  });
}
