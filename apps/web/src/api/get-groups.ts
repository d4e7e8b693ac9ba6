import { type Group, type GroupInfo, apiCalls } from '@bogwan/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi } from './client';
import { groupsKeys } from '../features/groups/api/keys';

/** GET /api/group: every group with its members and folder access (administrators). */
export function getGroups(signal?: AbortSignal): Promise<Group[]> {
  return callApi(apiCalls.group_list, { signal });
}

export function useGroups(enabled = true) {
  return useQuery({ queryKey: groupsKeys.list, queryFn: ({ signal }) => getGroups(signal), enabled, staleTime: 10_000 });
}

/** GET /api/group/info: names and member counts, for pickers. */
export function getGroupInfo(signal?: AbortSignal): Promise<GroupInfo[]> {
  return callApi(apiCalls.group_info, { signal });
}

export function useGroupInfo(enabled = true) {
  return useQuery({ queryKey: groupsKeys.info, queryFn: ({ signal }) => getGroupInfo(signal), enabled, staleTime: 10_000 });
}
