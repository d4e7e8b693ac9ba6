import { authResponseSchema, type AuthResponse, type SetupRequest } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { setupStatusQueryOptions } from './get-setup-status';

/** POST /api/auth/setup: creates the first (MASTER) account with the one-time setup token. */
export function setupAccount(body: SetupRequest): Promise<AuthResponse> {
  return apiFetch('/auth/setup', { method: 'POST', body, schema: authResponseSchema });
}

export function useSetupAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setupAccount,
    onSettled: () => queryClient.invalidateQueries({ queryKey: setupStatusQueryOptions.queryKey }),
  });
}
