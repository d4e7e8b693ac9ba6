import { type RootFolder, apiCalls } from '@bogwan/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { permissionsKeys } from './keys';

/** GET /api/file/root: the root folders; those whose name holds _deleted_ are left out (spec). */
export async function getRoots(signal?: AbortSignal): Promise<RootFolder[]> {
  const roots = await callApi(apiCalls.root_list, { signal });
  return roots.filter((root) => !root.name.includes('_deleted_'));
}

export function useRoots() {
  return useQuery({ queryKey: permissionsKeys.roots, queryFn: ({ signal }) => getRoots(signal) });
}
