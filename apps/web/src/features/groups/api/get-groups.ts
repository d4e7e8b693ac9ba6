import { groupInfoListSchema, groupListSchema, type Group, type GroupInfo } from '@bogwan/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { groupsKeys } from './keys';

/** GET /api/group: every group with its members and folder access (administrators). */
export function getGroups(signal?: AbortSignal): Promise<Group[]> {
  return apiFetch('/group', { schema: groupListSchema, signal });
}

export function useGroups(enabled = true) {
  return useQuery({ queryKey: groupsKeys.list, queryFn: ({ signal }) => getGroups(signal), enabled, staleTime: 10_000 });
}

/** GET /api/group/info: names and member counts, for pickers. */
export function getGroupInfo(signal?: AbortSignal): Promise<GroupInfo[]> {
  return apiFetch('/group/info', { schema: groupInfoListSchema, signal });
}

export function useGroupInfo(enabled = true) {
  return useQuery({ queryKey: groupsKeys.info, queryFn: ({ signal }) => getGroupInfo(signal), enabled, staleTime: 10_000 });
}
