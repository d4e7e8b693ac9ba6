/**
 * A 503 with `Retry-After` is the server's admission control saying it is busy: it refused the
 * call before doing any of it, so the call is sent again after the time it names (capped, with
 * some jitter so that refused clients do not come back at the same instant), at most this often.
 */
const BUSY_RETRIES = 2;
const BUSY_WAIT_CAP_MS = 5000;

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** Sends with `sendOnce`, again while the server answers busy (see above); the last answer otherwise. */
export async function whileBusy(sendOnce: () => Promise<Response>, signal?: AbortSignal): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const response = await sendOnce();
    const retryAfter = response.status === 503 ? response.headers.get('retry-after') : null;
    if (retryAfter === null || attempt >= BUSY_RETRIES) return response;
    const seconds = Number(retryAfter);
    const wait = Math.min(BUSY_WAIT_CAP_MS, Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000);
    await pause(wait * (1 + Math.random() / 2), signal);
  }
}
