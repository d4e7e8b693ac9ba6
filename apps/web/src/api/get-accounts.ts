import { type Account, apiCalls } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from './client';
import { accountsKeys } from '../features/accounts/api/keys';

/** GET /api/user: every account, sorted by the server (role, then name in Korean order). */
export function getAccounts(signal?: AbortSignal): Promise<Account[]> {
  return callApi(apiCalls.user_list, { signal });
}

export const accountsQueryOptions = queryOptions({
  queryKey: accountsKeys.list,
  queryFn: ({ signal }) => getAccounts(signal),
  staleTime: 10_000,
});

export function useAccounts(enabled = true) {
  return useQuery({ ...accountsQueryOptions, enabled });
}
