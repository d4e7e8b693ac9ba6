import { type FolderAccess, apiCalls } from '@bogwan/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { accountsKeys } from './keys';

/** GET /api/user/:id/permissions: the account's access per root folder. */
export function getAccountPermissions(userId: string, signal?: AbortSignal): Promise<FolderAccess[]> {
  return callApi(apiCalls.user_permissions, { params: { id: userId }, signal });
}

export function useAccountPermissions(userId: string, enabled: boolean) {
  return useQuery({
    queryKey: accountsKeys.permissions(userId),
    queryFn: ({ signal }) => getAccountPermissions(userId, signal),
    enabled,
  });
}
