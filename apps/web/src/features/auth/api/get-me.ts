import { type User, apiCalls } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

/** GET /api/user/me: the signed-in user as the server knows it now. */
export function getMe(signal?: AbortSignal): Promise<User> {
  return callApi(apiCalls.me, { signal });
}

export const meQueryOptions = queryOptions({
  queryKey: ['user', 'me'],
  queryFn: ({ signal }) => getMe(signal),
  staleTime: 60_000,
});

export function useMe(enabled: boolean) {
  return useQuery({ ...meQueryOptions, enabled });
}
