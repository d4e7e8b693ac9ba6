import { secureStatusSchema, type SecureStatus } from '@bogwan/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { requestsKeys } from './keys';

/** GET /api/request/secure?path=: whether a path lies in or holds a secure folder. */
export function getSecureStatus(path: string, signal?: AbortSignal): Promise<SecureStatus> {
  return apiFetch('/request/secure', { query: { path }, schema: secureStatusSchema, signal });
}

export function useSecureStatus(path: string | null) {
  return useQuery({
    queryKey: requestsKeys.secure(path ?? ''),
    queryFn: ({ signal }) => getSecureStatus(path!, signal),
    enabled: path !== null && path !== '/',
  });
}
