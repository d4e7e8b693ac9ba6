import { apiCalls } from '@bogwan/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { callApi } from '../../../api/client';
import { authStore, clearAuth } from '../../../state/auth';

const LOGOUT_TIMEOUT_MS = 5000;

/** POST /api/auth/logout: revokes the session (refresh cookie, and the bearer token if any) on the server. */
export function logout(userId: string): Promise<void> {
  return callApi(apiCalls.logout, {
    body: { _id: userId },
    signal: AbortSignal.timeout(LOGOUT_TIMEOUT_MS),
    // Signing out must not extend the session it ends.
    refresh: false,
  });
}

/** Signs out: tells the server, then clears user and token whatever it answered. */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const auth = authStore.get();
    if (auth) await logout(auth.user._id).catch(() => undefined);
    clearAuth();
    queryClient.clear();
  }, [queryClient]);
}
