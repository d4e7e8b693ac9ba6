import { fetchWithSession } from '../../../api/fetch-with-session';

/** Bytes of a preview fetched at most (the text fallback reads only the start of a file). */
export const TEXT_PREVIEW_BYTES = 1024 * 1024;

/**
 * GET /api/file/preview?path=: the bytes for the in-app preview, with the bearer token in
 * the Authorization header (never in the URL). `range` asks for the first bytes only.
 */
export async function fetchPreview(path: string, options: { signal?: AbortSignal; firstBytes?: number } = {}): Promise<Blob> {
  const headers: Record<string, string> = {};
  if (options.firstBytes) headers.Range = `bytes=0-${options.firstBytes - 1}`;
  const response = await fetchWithSession(`/file/preview?${new URLSearchParams({ path })}`, {
    headers,
    signal: options.signal,
  });
  const blob = await response.blob();
  // A server that ignored the Range header sent everything: keep the start only.
  return options.firstBytes && blob.size > options.firstBytes ? blob.slice(0, options.firstBytes) : blob;
}
