import { type ApiCall, type CallInput, type CallOutput, callPath, callSearch } from '@bogwan/contracts';
import { authStore } from '../state/auth';
import { whileBusy } from './busy-retry';
import { ApiError, errorFromResponse } from './api-error';
import { endSession, freshToken, refreshSession } from './session-refresh';

export { ApiError } from './api-error';
export { setSessionEndedHandler } from './session-refresh';

const API_BASE = '/api';

/** Anything with a zod-like `parse`, so answers are checked against the contracts. */
interface Parser<T> {
  parse(data: unknown): T;
}

export interface ApiRequest<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON, or a FormData sent as multipart. */
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Schema of the answer; without it the answer is returned unchecked. */
  schema?: Parser<T>;
  signal?: AbortSignal;
  /** Extra request headers (a share link's token). */
  headers?: Record<string, string>;
  /**
   * Whether the call keeps the session alive: an access token about to expire is
   * refreshed first, and a 401 refusing the session is answered by one refresh and one replay.
   * Off for sign-out, which must not extend the session it ends. Default true.
   */
  refresh?: boolean;
  /**
   * For pages open to everyone (a public share link): when the session cannot be refreshed,
   * the call goes without it instead of failing. Default false.
   */
  sessionOptional?: boolean;
}

let onLicenceRequired: () => void = () => {};

/** Sets what happens when any call answers 403 `license_required` (the licence dialog opens). */
export function setLicenceRequiredHandler(handler: () => void): void {
  onLicenceRequired = handler;
}

function buildUrl(path: string, query: ApiRequest<unknown>['query']): string {
  // A call of the contracts carries its full path (`/api/…`); older callers give it without `/api`.
  const url = path.startsWith(`${API_BASE}/`) ? path : `${API_BASE}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

/**
 * A 401 means "no valid session" only with this key; any other key is the call's own answer
 * (wrong password, wrong code, wrong current password) and is shown, not retried.
 */
const SESSION_REFUSED = 'unauthorized_message';

function send(path: string, request: ApiRequest<unknown>, token: string | null): Promise<Response> {
  return whileBusy(() => sendOnce(path, request, token), request.signal);
}

async function sendOnce(path: string, request: ApiRequest<unknown>, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { ...request.headers, Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  // A form (file upload) sets its own multipart Content-Type with the boundary.
  const form = request.body instanceof FormData;
  if (request.body !== undefined && !form) headers['Content-Type'] = 'application/json';
  try {
    return await fetch(buildUrl(path, request.query), {
      method: request.method ?? 'GET',
      headers,
      body: request.body === undefined ? undefined : form ? (request.body as FormData) : JSON.stringify(request.body),
      credentials: 'same-origin',
      signal: request.signal,
    });
  } catch (cause) {
    if (request.signal?.aborted) throw cause;
    throw new ApiError(0, 'request_error_message');
  }
}

async function tokenForCall(request: ApiRequest<unknown>): Promise<string | null> {
  const auth = authStore.get();
  if (!auth || request.refresh === false) return auth?.token ?? null;
  let token: string | null;
  try {
    token = await freshToken();
  } catch {
    if (request.sessionOptional) return null;
    throw new ApiError(0, 'request_error_message');
  }
  // The refresh was refused: the session has ended and the call is not sent (or goes without it).
  if (token === null && !request.sessionOptional) throw new ApiError(401, 'unauthorized_message');
  return token;
}

/**
 * Calls the API under /api with the session's bearer token (refreshed first when it is
 * about to expire); throws ApiError on failure. A 401 that refuses the session gets one
 * refresh and one replay; if that fails too the session ends and the user goes to sign-in.
 */
export async function apiFetch<T = unknown>(path: string, request: ApiRequest<T> = {}): Promise<T> {
  const token = await tokenForCall(request);
  let response = await send(path, request, token);
  let error = response.ok ? null : await errorFromResponse(response);

  if (error?.status === 401 && error.messageKey === SESSION_REFUSED && token && request.refresh !== false) {
    // Another call may have refreshed already; otherwise ask for a new token once.
    const current = authStore.get()?.token ?? null;
    let next: string | null;
    try {
      next = current && current !== token ? current : await refreshSession(token);
    } catch {
      throw new ApiError(0, 'request_error_message');
    }
    if (next) {
      response = await send(path, request, next);
      error = response.ok ? null : await errorFromResponse(response);
      // A fresh token refused as well: the account no longer has a session.
      if (error?.status === 401 && error.messageKey === SESSION_REFUSED) endSession();
    } else if (request.sessionOptional) {
      response = await send(path, request, null);
      error = response.ok ? null : await errorFromResponse(response);
    }
  }

  if (error) {
    if (error.status === 403 && error.messageKey === 'license_required') onLicenceRequired();
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

/** How a feature calls the API through the contracts: the call's typed input, plus the client's own options. */
export type CallOptions<C extends ApiCall> = CallInput<C> & Pick<ApiRequest<unknown>, 'signal' | 'refresh' | 'headers' | 'sessionOptional'>;

type CallArgs<C extends ApiCall> = Record<never, never> extends CallOptions<C> ? [options?: CallOptions<C>] : [options: CallOptions<C>];

/**
 * Makes one call of the contracts (`apiCalls.trash_list`): its path parameters, query and body
 * typed by the contract, its answer checked against the contract's schema and typed by it.
 * A change in `packages/contracts` breaks the compile of every caller it affects.
 */
export function callApi<C extends ApiCall>(call: C, ...[options]: CallArgs<C>): Promise<CallOutput<C>> {
  const { params, query, body, signal, refresh, headers, sessionOptional } = (options ?? {}) as {
    params?: Record<string, string>;
    query?: unknown;
    body?: unknown;
  } & Pick<ApiRequest<unknown>, 'signal' | 'refresh' | 'headers' | 'sessionOptional'>;
  return apiFetch(callPath(call, params) + callSearch(query), {
    method: call.method as ApiRequest<unknown>['method'],
    body,
    schema: call.response as Parser<CallOutput<C>> | undefined,
    signal,
    refresh,
    headers,
    sessionOptional,
  });
}
