import { userSchema, type User } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

/** GET /api/user/me: the signed-in user as the server knows it now. */
export function getMe(signal?: AbortSignal): Promise<User> {
  return apiFetch('/user/me', { schema: userSchema, signal });
}

export const meQueryOptions = queryOptions({
  queryKey: ['user', 'me'],
  queryFn: ({ signal }) => getMe(signal),
  staleTime: 60_000,
});

export function useMe(enabled: boolean) {
  return useQuery({ ...meQueryOptions, enabled });
}
