import { type Account, type CreateAccountRequest, apiCalls } from '@bogwan/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { accountsKeys } from './keys';

/** POST /api/user: a new ACTIVE, approved account; without a password it gets the initial one. */
export function createAccount(body: CreateAccountRequest): Promise<Account> {
  return callApi(apiCalls.user_create, { body });
}

export function useCreateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountsKeys.all }),
  });
}

/** GET /api/user/initial-password: the password new accounts receive (the create dialog's note). */
export function useInitialPassword(enabled: boolean) {
  return useQuery({
    queryKey: accountsKeys.initialPassword,
    queryFn: ({ signal }) => callApi(apiCalls.user_initial_password, { signal }),
    enabled,
    staleTime: 60_000,
  });
}
