import { accountSchema, type Account, type UpdateAccountRequest } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { accountsKeys } from './keys';

/** PUT /api/user: name, role, status, approval or groups of an account (only what is sent changes). */
export function updateAccount(body: UpdateAccountRequest): Promise<Account> {
  return apiFetch('/user', { method: 'PUT', body, schema: accountSchema });
}

export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountsKeys.all }),
  });
}
