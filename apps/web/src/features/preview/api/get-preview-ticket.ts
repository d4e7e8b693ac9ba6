import { apiCalls } from '@bogwan/contracts';
import { callApi } from '../../../api/client';

/**
 * GET /api/file/preview/ticket?path=: the address a media element streams the file from
 * (with ranges, without the Authorization header), or null where the file must be fetched
 * once (secure folders count every download).
 */
export async function getPreviewStreamUrl(path: string, signal?: AbortSignal): Promise<string | null> {
  const { ticket } = await callApi(apiCalls.file_preview_ticket, { query: { path }, signal });
  return ticket ? `/api/file/preview/stream?${new URLSearchParams({ path, ticket })}` : null;
}
