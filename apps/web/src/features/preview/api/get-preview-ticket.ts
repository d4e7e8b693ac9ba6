import { previewTicketSchema } from '@bogwan/contracts';
import { apiFetch } from '../../../api/client';

/**
 * GET /api/file/preview/ticket?path=: the address a media element streams the file from
 * (with ranges, without the Authorization header), or null where the file must be fetched
 * once (secure folders count every download).
 */
export async function getPreviewStreamUrl(path: string, signal?: AbortSignal): Promise<string | null> {
  const { ticket } = await apiFetch('/file/preview/ticket', { query: { path }, schema: previewTicketSchema, signal });
  return ticket ? `/api/file/preview/stream?${new URLSearchParams({ path, ticket })}` : null;
}
