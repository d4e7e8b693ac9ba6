import { type GroupInfo, type Profile, apiCalls } from '@bogwan/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

/** GET /api/user/profile?keyword=: accounts to share with. */
export function findProfiles(keyword: string, signal?: AbortSignal): Promise<Profile[]> {
  return callApi(apiCalls.user_profile, { query: { keyword }, signal });
}

export function useProfiles(keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: ['shares', 'people', keyword],
    queryFn: ({ signal }) => findProfiles(keyword, signal),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/group/info: groups to share with. */
export function getGroupInfo(signal?: AbortSignal): Promise<GroupInfo[]> {
  return callApi(apiCalls.group_info, { signal });
}

export function useGroupInfo(enabled: boolean) {
  return useQuery({ queryKey: ['shares', 'groups'], queryFn: ({ signal }) => getGroupInfo(signal), enabled });
}
