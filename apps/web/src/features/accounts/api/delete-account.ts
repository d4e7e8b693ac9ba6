import { apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { authStore } from '../../../state/auth';
import { accountsKeys } from './keys';

/** POST /api/user/admin: an administrator deletes an account; its sessions end. */
export function deleteAccountByAdmin(accountId: string): Promise<unknown> {
  return callApi(apiCalls.user_delete, { body: { accountId, adminId: authStore.get()?.user._id } });
}

export function useDeleteAccountByAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAccountByAdmin,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountsKeys.all }),
  });
}
