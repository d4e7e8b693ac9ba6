import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '../state/auth';
import { apiFetch } from './client';
import { REFRESH_MARGIN_MS, needsRefresh, setSessionEndedHandler, tokenExpiresAt } from './session-refresh';

const user = {
  _id: 'u1',
  name: 'Kim',
  email: 'kim@example.com',
  description: '',
  role: 'USER',
  roleLevel: 1,
  status: 'ACTIVE',
  approved: true,
  provider: 'keeper',
  profileImage: null,
  lastLogin: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  mustChangePassword: false,
} as const;

/** An unsigned JWT-shaped token that expires `seconds` from now (the client never verifies it). */
function jwt(seconds: number, extra: Record<string, unknown> = {}): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const exp = Math.floor(Date.now() / 1000) + seconds;
  return `${encode({ alg: 'EdDSA', typ: 'JWT' })}.${encode({ sub: 'u1', exp, ...extra })}.signature`;
}

function answer(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

const unauthorized = () => answer(401, { statusCode: 401, message: 'unauthorized_message' });

interface Call {
  url: string;
  authorization: string | undefined;
  body: unknown;
}

/** A fake server: `route` answers each call; every call is recorded. */
function fakeServer(route: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const headers = (init.headers ?? {}) as Record<string, string>;
    const call = {
      url,
      authorization: headers.Authorization,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    return route(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

let ended: ReturnType<typeof vi.fn<() => void>>;

beforeEach(() => {
  ended = vi.fn<() => void>();
  setSessionEndedHandler(ended);
});

afterEach(() => {
  vi.unstubAllGlobals();
  authStore.set(null);
  setSessionEndedHandler(() => {});
});

describe('reading the token', () => {
  it('reads exp from the payload, base64url and unpadded', () => {
    const token = jwt(600, { name: '김보관??>>' });
    const expiresAt = tokenExpiresAt(token);
    expect(expiresAt).not.toBeNull();
    expect(Math.abs((expiresAt as number) - (Date.now() + 600_000))).toBeLessThan(1500);
  });

  it('gives null for anything that is not a readable JWT', () => {
    expect(tokenExpiresAt('abc')).toBeNull();
    expect(tokenExpiresAt('a.%%%.c')).toBeNull();
    expect(tokenExpiresAt(`a.${Buffer.from('{"exp":"soon"}').toString('base64url')}.c`)).toBeNull();
  });

  it('asks for a refresh within 30 s of expiry, not earlier', () => {
    expect(REFRESH_MARGIN_MS).toBe(30_000);
    expect(needsRefresh(jwt(29))).toBe(true);
    expect(needsRefresh(jwt(-5))).toBe(true);
    expect(needsRefresh(jwt(60))).toBe(false);
    expect(needsRefresh('opaque')).toBe(false);
  });
});

describe('refreshing before a call', () => {
  it('leaves a token with time left alone', async () => {
    const token = jwt(600);
    authStore.set({ user, token });
    const calls = fakeServer(() => answer(200, { ok: true }));
    await apiFetch('/user/me');
    expect(calls.map((c) => c.url)).toEqual(['/api/user/me']);
    expect(calls[0]?.authorization).toBe(`Bearer ${token}`);
  });

  it('refreshes a token that is about to expire, then sends the call with the new one', async () => {
    authStore.set({ user, token: jwt(10) });
    const next = jwt(900);
    const calls = fakeServer((call) => (call.url === '/api/auth/refresh' ? answer(200, { token: next }) : answer(200, {})));
    await apiFetch('/user/me');
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/refresh', '/api/user/me']);
    expect(calls[0]?.body).toEqual({ _id: 'u1' });
    expect(calls[1]?.authorization).toBe(`Bearer ${next}`);
    expect(authStore.get()?.token).toBe(next);
    expect(authStore.get()?.user).toEqual(user);
  });

  it('shares one refresh among concurrent calls', async () => {
    authStore.set({ user, token: jwt(-1) });
    const next = jwt(900);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls = fakeServer(async (call) => {
      if (call.url === '/api/auth/refresh') {
        await gate;
        return answer(200, { token: next });
      }
      return answer(200, {});
    });
    const pending = Promise.all([apiFetch('/a'), apiFetch('/b'), apiFetch('/c')]);
    await new Promise((r) => setTimeout(r, 10));
    release();
    await pending;
    expect(calls.filter((c) => c.url === '/api/auth/refresh')).toHaveLength(1);
    expect(calls.filter((c) => c.url !== '/api/auth/refresh').map((c) => c.authorization)).toEqual([`Bearer ${next}`, `Bearer ${next}`, `Bearer ${next}`]);
  });

  it('ends the session and sends nothing more when the refresh is refused', async () => {
    authStore.set({ user, token: jwt(5) });
    const calls = fakeServer(() => unauthorized());
    await expect(apiFetch('/user/me')).rejects.toMatchObject({ status: 401 });
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/refresh']);
    expect(authStore.get()).toBeNull();
    expect(ended).toHaveBeenCalledOnce();
  });

  it('keeps the session when the server cannot be reached', async () => {
    const token = jwt(5);
    authStore.set({ user, token });
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('network');
    });
    await expect(apiFetch('/user/me')).rejects.toMatchObject({ status: 0, messageKey: 'request_error_message' });
    expect(authStore.get()?.token).toBe(token);
    expect(ended).not.toHaveBeenCalled();
  });

  it('does not refresh for sign-out', async () => {
    const token = jwt(-60);
    authStore.set({ user, token });
    const calls = fakeServer(() => new Response(null, { status: 204 }));
    await apiFetch('/auth/logout', { method: 'POST', body: { _id: 'u1' }, refresh: false });
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/logout']);
    expect(calls[0]?.authorization).toBe(`Bearer ${token}`);
  });

  it('sends calls without a session as they are', async () => {
    const calls = fakeServer(() => answer(200, {}));
    await apiFetch('/auth/login', { method: 'POST', body: {} });
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/login']);
    expect(calls[0]?.authorization).toBeUndefined();
  });
});

describe('a 401 answer', () => {
  it('refusing the session: refreshes once and replays the call once', async () => {
    const old = jwt(600);
    const next = jwt(900);
    authStore.set({ user, token: old });
    const calls = fakeServer((call) => {
      if (call.url === '/api/auth/refresh') return answer(200, { token: next });
      return call.authorization === `Bearer ${next}` ? answer(200, { name: 'ok' }) : unauthorized();
    });
    await expect(apiFetch('/user/me')).resolves.toEqual({ name: 'ok' });
    expect(calls.map((c) => [c.url, c.authorization])).toEqual([
      ['/api/user/me', `Bearer ${old}`],
      ['/api/auth/refresh', undefined],
      ['/api/user/me', `Bearer ${next}`],
    ]);
    expect(ended).not.toHaveBeenCalled();
  });

  it('refusing a fresh token as well ends the session', async () => {
    authStore.set({ user, token: jwt(600) });
    const calls = fakeServer((call) => (call.url === '/api/auth/refresh' ? answer(200, { token: jwt(900) }) : unauthorized()));
    await expect(apiFetch('/user/me')).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(3);
    expect(authStore.get()).toBeNull();
    expect(ended).toHaveBeenCalledOnce();
  });

  it('uses a token another call refreshed meanwhile instead of refreshing again', async () => {
    const old = jwt(600);
    const next = jwt(900);
    authStore.set({ user, token: old });
    const calls = fakeServer((call) => {
      if (call.authorization === `Bearer ${old}`) {
        authStore.set({ user, token: next }); // another call's refresh lands first
        return unauthorized();
      }
      return answer(200, {});
    });
    await apiFetch('/user/me');
    expect(calls.map((c) => c.url)).toEqual(['/api/user/me', '/api/user/me']);
    expect(calls[1]?.authorization).toBe(`Bearer ${next}`);
  });

  it.each([
    ['/auth/verify/otp', 'login_failure_otp'],
    ['/auth/login', 'login_failure'],
    ['/user/password', 'not_matched_origin_password'],
  ])('with its own key (%s, %s) is the answer itself: no refresh, the session stays', async (path, key) => {
    authStore.set({ user, token: jwt(600) });
    const calls = fakeServer(() => answer(401, { statusCode: 401, message: key }));
    await expect(apiFetch(path, { method: 'POST', body: {} })).rejects.toMatchObject({ status: 401, messageKey: key });
    expect(calls).toHaveLength(1);
    expect(authStore.get()).not.toBeNull();
    expect(ended).not.toHaveBeenCalled();
  });

  it('refusing the session on a signed-in call under /auth is refreshed and replayed too', async () => {
    const next = jwt(900);
    authStore.set({ user, token: jwt(600) });
    const calls = fakeServer((call) => {
      if (call.url === '/api/auth/refresh') return answer(200, { token: next });
      return call.authorization === `Bearer ${next}` ? answer(200, { mfa: 'none', otpRegistered: false, fingerprints: 0 }) : unauthorized();
    });
    await expect(apiFetch('/auth/factors')).resolves.toMatchObject({ mfa: 'none' });
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/factors', '/api/auth/refresh', '/api/auth/factors']);
  });

  it('a refresh that arrives after sign-out does not bring the session back', async () => {
    authStore.set({ user, token: jwt(5) });
    fakeServer((call) => {
      if (call.url === '/api/auth/refresh') {
        authStore.set(null);
        return answer(200, { token: jwt(900) });
      }
      return answer(200, {});
    });
    await expect(apiFetch('/user/me')).rejects.toMatchObject({ status: 401 });
    expect(authStore.get()).toBeNull();
  });
});
