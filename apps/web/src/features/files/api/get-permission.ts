import { type PermissionType, apiCalls } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { filesKeys } from './keys';

/** GET /api/resource/permission?path=: what the user may do there. A failed lookup counts as nothing. */
export async function getPermission(path: string, signal?: AbortSignal): Promise<PermissionType[]> {
  try {
    return await callApi(apiCalls.resource_permission, { query: { path }, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    return [];
  }
}

export function permissionQueryOptions(path: string) {
  return queryOptions({
    queryKey: filesKeys.permission(path),
    queryFn: ({ signal }) => getPermission(path, signal),
    staleTime: 30_000,
  });
}

export function usePermission(path: string | null) {
  return useQuery({ ...permissionQueryOptions(path ?? '/'), enabled: path !== null });
}
