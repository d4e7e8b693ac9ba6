import { type Account, type UpdateAccountRequest, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { accountsKeys } from './keys';

/** PUT /api/user: name, role, status, approval or groups of an account (only what is sent changes). */
export function updateAccount(body: UpdateAccountRequest): Promise<Account> {
  return callApi(apiCalls.user_update, { body });
}

export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountsKeys.all }),
  });
}
