import { apiCalls, authResponseSchema } from '@bogwan/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '../state/auth';
import { ApiError, apiFetch, callApi, setLicenceRequiredHandler, setSessionEndedHandler } from './client';

const user = {
  _id: 'u1',
  name: 'Kim',
  email: 'kim@example.com',
  description: '',
  role: 'MASTER',
  roleLevel: 3,
  status: 'ACTIVE',
  approved: true,
  provider: 'keeper',
  profileImage: null,
  lastLogin: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  mustChangePassword: false,
} as const;

function answer(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  authStore.set(null);
  setSessionEndedHandler(() => {});
});

describe('apiFetch', () => {
  it('sends a call refused as busy (503 with Retry-After) again after the time the server names', async () => {
    vi.useFakeTimers();
    try {
      const busy = () => new Response(JSON.stringify({ message: 'server_busy' }), { status: 503, headers: { 'Retry-After': '1' } });
      const fetchMock = vi
        .fn()
        .mockImplementationOnce(async () => busy())
        .mockImplementationOnce(async () => answer(200, { ok: true }));
      vi.stubGlobal('fetch', fetchMock);
      const result = apiFetch('/file/list');
      await vi.advanceTimersByTimeAsync(900);
      // Not before a second has passed.
      expect(fetchMock).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(700);
      await expect(result).resolves.toEqual({ ok: true });
      expect(fetchMock).toHaveBeenCalledTimes(2);

      // Still busy after two more tries: the user is told, with the server's message.
      const alwaysBusy = vi.fn(async () => busy());
      vi.stubGlobal('fetch', alwaysBusy);
      const refused = apiFetch('/file/list').catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(10_000);
      const error = (await refused) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(503);
      expect(error.messageKey).toBe('server_busy');
      expect(alwaysBusy).toHaveBeenCalledTimes(3);

      // A 503 without Retry-After (e.g. storage unavailable) is not sent again.
      const unavailable = vi.fn(async () => answer(503, { message: 'storage_unavailable' }));
      vi.stubGlobal('fetch', unavailable);
      await expect(apiFetch('/file/list')).rejects.toBeInstanceOf(ApiError);
      expect(unavailable).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends the bearer token and parses the answer with the schema', async () => {
    authStore.set({ user, token: 'abc' });
    const fetchMock = vi.fn(async () => answer(200, { user, token: 'next' }));
    vi.stubGlobal('fetch', fetchMock);
    const result = await apiFetch('/auth/login', { method: 'POST', body: { a: 1 }, schema: authResponseSchema });
    expect(result.token).toBe('next');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/auth/login');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer abc');
    expect(init.body).toBe('{"a":1}');
  });

  it('sends a form as multipart, leaving the Content-Type (with its boundary) to the browser', async () => {
    const fetchMock = vi.fn(async () => answer(200, { ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.xlsx');
    await apiFetch('/user/excel', { method: 'POST', body: form });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.body).toBe(form);
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });

  it('turns an error answer into ApiError with its message key', async () => {
    vi.stubGlobal('fetch', async () => answer(403, { statusCode: 403, message: 'setup_token_invalid' }));
    await expect(apiFetch('/auth/setup', { method: 'POST', body: {} })).rejects.toMatchObject({
      status: 403,
      messageKey: 'setup_token_invalid',
    });
  });

  it('uses the generic key when the server cannot be reached or answers no JSON', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('network');
    });
    await expect(apiFetch('/user/me')).rejects.toEqual(new ApiError(0, 'request_error_message'));
    vi.stubGlobal('fetch', async () => new Response('oops', { status: 502 }));
    await expect(apiFetch('/user/me')).rejects.toMatchObject({ status: 502, messageKey: 'request_error_message' });
  });

  it('ends the session when a 401 outside /auth cannot be cured by a refresh', async () => {
    authStore.set({ user, token: 'abc' });
    const handler = vi.fn();
    setSessionEndedHandler(handler);
    const fetchMock = vi.fn(async (_url: string) => answer(401, { statusCode: 401, message: 'unauthorized_message' }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiFetch('/user/me')).rejects.toBeInstanceOf(ApiError);
    expect(authStore.get()).toBeNull();
    expect(handler).toHaveBeenCalledOnce();
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/user/me', '/api/auth/refresh']);
  });

  it('keeps the session when a sign-in call answers 401', async () => {
    authStore.set({ user, token: 'abc' });
    vi.stubGlobal('fetch', async () => answer(401, { statusCode: 401, message: 'login_failure' }));
    await expect(apiFetch('/auth/login', { method: 'POST', body: {} })).rejects.toMatchObject({ messageKey: 'login_failure' });
    expect(authStore.get()).not.toBeNull();
  });

  it('tells the licence handler about a 403 license_required, and only about that', async () => {
    const handler = vi.fn();
    setLicenceRequiredHandler(handler);
    vi.stubGlobal('fetch', async () => answer(403, { statusCode: 403, message: 'license_required' }));
    await expect(apiFetch('/user/me')).rejects.toMatchObject({ status: 403, messageKey: 'license_required' });
    vi.stubGlobal('fetch', async () => answer(403, { statusCode: 403, message: 'no_access_warning' }));
    await expect(apiFetch('/user/me')).rejects.toMatchObject({ status: 403 });
    expect(handler).toHaveBeenCalledOnce();
    setLicenceRequiredHandler(() => {});
  });

  it('returns nothing for 204', async () => {
    vi.stubGlobal('fetch', async () => new Response(null, { status: 204 }));
    await expect(apiFetch('/auth/logout', { method: 'POST', body: { _id: 'u1' } })).resolves.toBeUndefined();
  });
});

describe('callApi', () => {
  it('fills the path parameters and query of a contract call and checks the answer against its schema', async () => {
    authStore.set({ user, token: 'abc' });
    const fetchMock = vi.fn(async () => answer(200, { count: 1 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(callApi(apiCalls.trash_delete, { params: { id: 'a b/c' } })).resolves.toEqual({ count: 1 });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/trash/a%20b%2Fc');
    expect(init.method).toBe('DELETE');

    fetchMock.mockImplementation(async () => answer(200, { items: [], total: 0 }));
    await callApi(apiCalls.trash_list, { query: { skip: 0, limit: 20 } });
    expect((fetchMock.mock.calls[1] as unknown as [string])[0]).toBe('/api/trash?skip=0&limit=20');
  });

  it('refuses an answer that breaks the contract', async () => {
    authStore.set({ user, token: 'abc' });
    vi.stubGlobal('fetch', async () => answer(200, { days: 'thirty' }));
    await expect(callApi(apiCalls.trash_retention)).rejects.toMatchObject({ messageKey: 'request_error_message' });
  });

  it('a public page whose session has ended is read without it, with its own headers', async () => {
    authStore.set({ user, token: 'stale' });
    setSessionEndedHandler(() => {});
    const share = {
      name: 'a.txt',
      folder: false,
      size: 1,
      expiresAt: null,
      passwordRequired: false,
      unlocked: true,
      downloadsLeft: null,
      preview: true,
      creator: 'Kim',
    };
    const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
      if (url === '/api/auth/refresh') return answer(401, { statusCode: 401, message: 'unauthorized_message' });
      const auth = (init.headers as Record<string, string>).Authorization;
      return auth ? answer(401, { statusCode: 401, message: 'unauthorized_message' }) : answer(200, share);
    });
    vi.stubGlobal('fetch', fetchMock);
    const read = callApi(apiCalls.share_public, { params: { key: 'k' }, headers: { 'x-share-token': 't' }, sessionOptional: true });
    await expect(read).resolves.toMatchObject({ name: 'a.txt' });
    const last = fetchMock.mock.calls.at(-1) as unknown as [string, RequestInit];
    expect(last[0]).toBe('/api/share/public/k');
    expect(last[1].headers).toMatchObject({ 'x-share-token': 't' });
    expect((last[1].headers as Record<string, string>).Authorization).toBeUndefined();
    // Without the option the same call fails: the session is gone.
    authStore.set({ user, token: 'stale' });
    await expect(callApi(apiCalls.share_public, { params: { key: 'k' } })).rejects.toMatchObject({ status: 401 });
  });
});
