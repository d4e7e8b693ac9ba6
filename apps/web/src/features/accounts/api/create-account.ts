import { accountSchema, initialPasswordSchema, type Account, type CreateAccountRequest } from '@bogwan/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { accountsKeys } from './keys';

/** POST /api/user: a new ACTIVE, approved account; without a password it gets the initial one. */
export function createAccount(body: CreateAccountRequest): Promise<Account> {
  return apiFetch('/user', { method: 'POST', body, schema: accountSchema });
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
    queryFn: ({ signal }) => apiFetch('/user/initial-password', { schema: initialPasswordSchema, signal }),
    enabled,
    staleTime: 60_000,
  });
}
