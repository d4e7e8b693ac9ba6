import { type ShareList, apiCalls } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { sharesKeys } from './keys';

/** GET /api/share: the caller's links and the items shared with the caller. */
export function getShares(signal?: AbortSignal): Promise<ShareList> {
  return callApi(apiCalls.share_list, { signal });
}

export const sharesQueryOptions = () => queryOptions({ queryKey: sharesKeys.list, queryFn: ({ signal }) => getShares(signal) });

export function useShares() {
  return useQuery(sharesQueryOptions());
}
