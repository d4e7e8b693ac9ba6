import { type AuthResponse, type SetupRequest, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { setupStatusQueryOptions } from './get-setup-status';

/** POST /api/auth/setup: creates the first (MASTER) account with the one-time setup token. */
export function setupAccount(body: SetupRequest): Promise<AuthResponse> {
  return callApi(apiCalls.setup, { body });
}

export function useSetupAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setupAccount,
    onSettled: () => queryClient.invalidateQueries({ queryKey: setupStatusQueryOptions.queryKey }),
  });
}
