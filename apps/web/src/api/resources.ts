import { type Resource, type UpdateResourceRequest, apiCalls } from '@bogwan/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from './client';
import { permissionsKeys } from '../features/permissions/api/keys';

/** GET /api/resource: every permission record. */
export function getResources(signal?: AbortSignal): Promise<Resource[]> {
  return callApi(apiCalls.resource_list, { signal });
}

export function useResources() {
  return useQuery({ queryKey: permissionsKeys.resources, queryFn: ({ signal }) => getResources(signal) });
}

/** GET /api/resource?path=: the record of one folder or file, or null when it has none yet. */
export async function getResourceAt(path: string, signal?: AbortSignal): Promise<Resource | null> {
  const list = await callApi(apiCalls.resource_list, { query: { path }, signal });
  return list.find((resource) => resource.path === path) ?? null;
}

export function useResourceAt(path: string | null) {
  return useQuery({
    queryKey: permissionsKeys.resourceAt(path ?? ''),
    queryFn: ({ signal }) => getResourceAt(path as string, signal),
    enabled: path !== null,
  });
}

/**
 * PUT /api/resource: changed entries of a folder or file, by `_id` or by `path` (the
 * record is created when the node has none yet).
 */
export function saveResource(body: UpdateResourceRequest): Promise<unknown> {
  return callApi(apiCalls.resource_update, { body });
}

/** Invalidates every query that shows permissions or a user's or group's access. */
export function useSaveResource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveResource,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: permissionsKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['accounts'] }),
        queryClient.invalidateQueries({ queryKey: ['groups'] }),
        queryClient.invalidateQueries({ queryKey: ['files', 'permission'] }),
      ]),
  });
}

/** DELETE /api/resource/:id: the record goes; the node inherits again. */
export function deleteResource(id: string): Promise<unknown> {
  return callApi(apiCalls.resource_delete, { params: { id } });
}

export function useDeleteResource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteResource,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: permissionsKeys.all }),
  });
}
