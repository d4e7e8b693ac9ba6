import { type AppPassword, type AppPasswordCreate, type AppPasswordCreated, apiCalls } from '@bogwan/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

/** GET /api/auth/app-passwords: the account's app passwords (never the passwords themselves). */
export function getAppPasswords(signal?: AbortSignal): Promise<AppPassword[]> {
  return callApi(apiCalls.app_passwords, { signal });
}

export const appPasswordsQueryOptions = queryOptions({
  queryKey: ['auth', 'app-passwords'],
  queryFn: ({ signal }) => getAppPasswords(signal),
});

export function useAppPasswords() {
  return useQuery(appPasswordsQueryOptions);
}

/** POST /api/auth/app-passwords: a new app password, shown in this answer only (the current password confirms it). */
export function createAppPassword(body: AppPasswordCreate): Promise<AppPasswordCreated> {
  return callApi(apiCalls.app_password_create, { body });
}

export function useCreateAppPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAppPassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appPasswordsQueryOptions.queryKey }),
  });
}

/** DELETE /api/auth/app-passwords/{id}: the password stops working at once. */
export function revokeAppPassword(id: string): Promise<void> {
  return callApi(apiCalls.app_password_revoke, { params: { id } });
}

export function useRevokeAppPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeAppPassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appPasswordsQueryOptions.queryKey }),
  });
}
