import type { AuthResponse, User } from '@bogwan/contracts';
import { createStore, useStore } from './store';

/** The signed-in session: the user and the access token, or null when signed out. */
export type AuthState = AuthResponse | null;

function parseAuth(raw: unknown): AuthState {
  if (!raw || typeof raw !== 'object') return null;
  const { user, token } = raw as Partial<AuthResponse>;
  if (typeof token !== 'string' || !token || !user || typeof user !== 'object') return null;
  if (typeof user._id !== 'string' || typeof user.email !== 'string') return null;
  return { user, token };
}

export const authStore = createStore<AuthState>(null, { key: 'auth', parse: parseAuth });

export function useAuth(): AuthState {
  return useStore(authStore);
}

export function setAuth(auth: AuthResponse): void {
  authStore.set({ user: auth.user, token: auth.token });
}

/** Replaces the stored user (after the server answered a fresher copy), keeping the token. */
export function updateAuthUser(user: User): void {
  const current = authStore.get();
  if (current) authStore.set({ ...current, user });
}

export function clearAuth(): void {
  authStore.set(null);
}

/** A session may be used only by an ACTIVE account; anyone else is sent to sign-in. */
export function isUsableSession(auth: AuthState): auth is AuthResponse {
  return auth !== null && auth.user.status === 'ACTIVE';
}
