import { ACCESS_LOG_EXPORT_FILE, type AccessLogFilter } from '@bogwan/contracts';
import { useMutation } from '@tanstack/react-query';
import { fetchWithSession } from '../../../api/fetch-with-session';

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * GET /api/system/log/export?…filters: the matching entries as CSV, fetched with the
 * bearer token and saved as `system_log_data.csv`.
 */
export async function exportAccessLog(filter: AccessLogFilter): Promise<void> {
  const query = new URLSearchParams(Object.entries(filter).filter((entry): entry is [string, string] => Boolean(entry[1])));
  const response = await fetchWithSession(`/system/log/export?${query}`);
  save(await response.blob(), ACCESS_LOG_EXPORT_FILE);
}

export function useExportAccessLog() {
  return useMutation({ mutationFn: exportAccessLog });
}
