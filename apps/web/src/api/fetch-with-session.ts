import { authStore } from '../state/auth';
import { ApiError, errorFromResponse } from './api-error';
import { whileBusy } from './busy-retry';
import { endSession, freshToken, refreshSession } from './session-refresh';

/**
 * A raw GET under /api with the session's bearer token, for bytes (download, preview)
 * rather than JSON. A refused session gets one refresh and one replay, as in `apiFetch`.
 * Throws ApiError with the server's message key on an error answer.
 */
export async function fetchWithSession(path: string, init: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> {
  const send = async (token: string | null) => {
    const headers: Record<string, string> = { ...init.headers };
    if (token) headers.Authorization = `Bearer ${token}`;
    try {
      return await whileBusy(() => fetch(`/api${path}`, { headers, credentials: 'same-origin', signal: init.signal }), init.signal);
    } catch (cause) {
      if (init.signal?.aborted) throw cause;
      throw new ApiError(0, 'request_error_message');
    }
  };
  const token = authStore.get() ? await freshToken().catch(() => null) : null;
  let response = await send(token);
  if (response.status === 401 && token) {
    const error = await errorFromResponse(response.clone());
    if (error.messageKey === 'unauthorized_message') {
      const next = await refreshSession(token).catch(() => null);
      if (next) {
        response = await send(next);
        if (response.status === 401) endSession();
      }
    }
  }
  if (!response.ok) throw await errorFromResponse(response);
  return response;
}
