import { type SecureStatus, apiCalls } from '@bogwan/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { requestsKeys } from './keys';

/** GET /api/request/secure?path=: whether a path lies in or holds a secure folder. */
export function getSecureStatus(path: string, signal?: AbortSignal): Promise<SecureStatus> {
  return callApi(apiCalls.request_secure_status, { query: { path }, signal });
}

export function useSecureStatus(path: string | null) {
  return useQuery({
    queryKey: requestsKeys.secure(path ?? ''),
    queryFn: ({ signal }) => getSecureStatus(path!, signal),
    enabled: path !== null && path !== '/',
  });
}
