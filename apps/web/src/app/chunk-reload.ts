const CHUNK_ERROR_PATTERN = /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/;

const RELOAD_KEY = 'chunk_reload_at';
const RELOAD_INTERVAL_MS = 60_000;

/** True for the error a browser raises when a code-split chunk cannot be loaded (usually after a deploy). */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return CHUNK_ERROR_PATTERN.test(message);
}

/** Whether a reload is allowed now, given the time of the last one (at most once per minute). */
export function mayReloadAt(now: number, lastReload: number | null): boolean {
  return lastReload === null || !Number.isFinite(lastReload) || now - lastReload >= RELOAD_INTERVAL_MS;
}

/** Reloads the page to fetch the new chunks, unless that already happened in the last minute. */
export function reloadForChunkError(now = Date.now()): boolean {
  let last: number | null = null;
  try {
    const stored = sessionStorage.getItem(RELOAD_KEY);
    last = stored === null ? null : Number(stored);
    if (!mayReloadAt(now, last)) return false;
    sessionStorage.setItem(RELOAD_KEY, String(now));
  } catch {
    return false; // without storage a reload could loop
  }
  window.location.reload();
  return true;
}
