import { refreshResponseSchema } from '@bogwan/contracts';
import { authStore, clearAuth } from '../state/auth';

/** A token that expires within this margin is refreshed before it is sent. */
export const REFRESH_MARGIN_MS = 30_000;

const REFRESH_URL = '/api/auth/refresh';
/** Name of the Web Lock that keeps two tabs from rotating the refresh cookie at once. */
const REFRESH_LOCK = 'bogwan-session-refresh';

type SessionEndedHandler = () => void;
let onSessionEnded: SessionEndedHandler = () => {};

/** Sets what happens after the session ended (refresh refused, or a fresh token refused): go to sign-in. */
export function setSessionEndedHandler(handler: SessionEndedHandler): void {
  onSessionEnded = handler;
}

/** Clears user and token and tells the handler; used whenever the server no longer accepts the session. */
export function endSession(): void {
  clearAuth();
  onSessionEnded();
}

/** Expiry time (ms since epoch) read from a JWT's payload without verifying it; null when unreadable. */
export function tokenExpiresAt(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** Whether a token is expired or expires within the margin; an unreadable token counts as fresh (the server decides). */
export function needsRefresh(token: string, now: number = Date.now()): boolean {
  const expiresAt = tokenExpiresAt(token);
  return expiresAt !== null && expiresAt - now <= REFRESH_MARGIN_MS;
}

/** Outcome of a refresh: the new token, or null when the session is over. */
type RefreshOutcome = string | null;

let inFlight: Promise<RefreshOutcome> | null = null;

async function requestNewToken(userId: string): Promise<RefreshOutcome> {
  let response: Response;
  try {
    response = await fetch(REFRESH_URL, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ _id: userId }),
      credentials: 'same-origin',
    });
  } catch {
    // Unreachable server: the session may still be good; the call fails on its own.
    throw new Error('refresh unreachable');
  }
  if (!response.ok) return null;
  try {
    return refreshResponseSchema.parse(await response.json()).token;
  } catch {
    return null;
  }
}

interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

function lockManager(): LockManagerLike | null {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator;
  return nav?.locks && typeof nav.locks.request === 'function' ? nav.locks : null;
}

/**
 * One refresh for this tab. `staleToken` is the token the caller found wanting; if
 * another tab has already replaced it (the store follows localStorage) that one is used.
 */
async function runRefresh(staleToken: string): Promise<RefreshOutcome> {
  const attempt = async (): Promise<RefreshOutcome> => {
    const auth = authStore.get();
    if (!auth) return null;
    if (auth.token !== staleToken && !needsRefresh(auth.token)) return auth.token;
    const token = await requestNewToken(auth.user._id);
    const current = authStore.get();
    // Signed out (or in as someone else) meanwhile: do not bring the old session back.
    if (!current || current.user._id !== auth.user._id) return null;
    if (token === null) {
      endSession();
      return null;
    }
    authStore.set({ ...current, token });
    return token;
  };
  const locks = lockManager();
  return locks ? locks.request(REFRESH_LOCK, attempt) : attempt();
}

/**
 * Gets a new access token with the refresh cookie. Concurrent callers share one request.
 * Resolves to the new token, or null when the session has ended (user and token cleared,
 * handler told). Rejects when the server cannot be reached.
 */
export function refreshSession(staleToken: string): Promise<RefreshOutcome> {
  if (!inFlight) {
    inFlight = runRefresh(staleToken).finally(() => {
      inFlight = null;
    });
  }
  return inFlight;
}

/**
 * The token to send with a call: the stored one, refreshed first when it expires within
 * 30 s. Null when there is no session (or it just ended).
 */
export async function freshToken(): Promise<string | null> {
  const auth = authStore.get();
  if (!auth) return null;
  if (!needsRefresh(auth.token)) return auth.token;
  return refreshSession(auth.token);
}
