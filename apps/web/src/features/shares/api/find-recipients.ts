import { groupInfoListSchema, profileListSchema, type GroupInfo, type Profile } from '@bogwan/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

/** GET /api/user/profile?keyword=: accounts to share with. */
export function findProfiles(keyword: string, signal?: AbortSignal): Promise<Profile[]> {
  return apiFetch('/user/profile', { query: { keyword }, schema: profileListSchema, signal });
}

export function useProfiles(keyword: string, enabled: boolean) {
  return useQuery({ queryKey: ['shares', 'people', keyword], queryFn: ({ signal }) => findProfiles(keyword, signal), enabled, placeholderData: keepPreviousData });
}

/** GET /api/group/info: groups to share with. */
export function getGroupInfo(signal?: AbortSignal): Promise<GroupInfo[]> {
  return apiFetch('/group/info', { schema: groupInfoListSchema, signal });
}

export function useGroupInfo(enabled: boolean) {
  return useQuery({ queryKey: ['shares', 'groups'], queryFn: ({ signal }) => getGroupInfo(signal), enabled });
}
