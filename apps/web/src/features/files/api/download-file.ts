import { type DownloadTicketRequest, apiCalls } from '@bogwan/contracts';
import { startDownload } from '../../../api/browser-download';
import { callApi } from '../../../api/client';

/**
 * POST /api/file/download/ticket, then hand the address it answers to the browser: its
 * download manager streams the file (or the zip) to disk with its own progress, and resumes
 * an interrupted file with Range under the same ticket. The page never holds the bytes, and
 * the address carries no bearer token (only a ticket bound to this session and this download).
 */
export async function downloadByTicket(request: DownloadTicketRequest): Promise<void> {
  const { url } = await callApi(apiCalls.file_download_ticket, { body: request });
  startDownload(url);
}

/** One file, or a folder as a zip (one item); several items as one zip. */
export function downloadItems(items: Array<{ path: string }>): Promise<void> {
  const [first] = items;
  if (!first) return Promise.resolve();
  return downloadByTicket(items.length === 1 ? { path: first.path } : { paths: items.map((item) => item.path) });
}
