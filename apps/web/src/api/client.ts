import { clearAuth, authStore } from '../state/auth';
import { ApiError, errorFromResponse } from './api-error';

export { ApiError } from './api-error';

const API_BASE = '/api';

/** Anything with a zod-like `parse`, so answers are checked against the contracts. */
interface Parser<T> {
  parse(data: unknown): T;
}

export interface ApiRequest<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Schema of the answer; without it the answer is returned unchecked. */
  schema?: Parser<T>;
  signal?: AbortSignal;
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => {};

/** Sets what happens after a call outside /auth answered 401 and the session was cleared. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

function buildUrl(path: string, query: ApiRequest<unknown>['query']): string {
  const url = `${API_BASE}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

/** Calls the API under /api with the session's bearer token; throws ApiError on failure. */
export async function apiFetch<T = unknown>(path: string, request: ApiRequest<T> = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = authStore.get()?.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(buildUrl(path, request.query), {
      method: request.method ?? 'GET',
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      credentials: 'same-origin',
      signal: request.signal,
    });
  } catch (cause) {
    if (request.signal?.aborted) throw cause;
    throw new ApiError(0, 'request_error_message');
  }

  if (!response.ok) {
    const error = await errorFromResponse(response);
    if (response.status === 401 && !path.startsWith('/auth/') && token) {
      clearAuth();
      onUnauthorized();
    }
    throw error;
  }

  if (response.status === 204) return undefined as T;
  let data: unknown;
  try {
    data = await response.json();
  } catch {
    throw new ApiError(response.status, 'request_error_message');
  }
  if (!request.schema) return data as T;
  try {
    return request.schema.parse(data);
  } catch {
    throw new ApiError(response.status, 'request_error_message');
  }
}
