import { type ApprovalRequest, type CreateRequest, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { requestsKeys } from './keys';

/** POST /api/request: asks the security managers for a download or a share link. */
export function createRequest(body: CreateRequest): Promise<ApprovalRequest> {
  return callApi(apiCalls.request_create, { body });
}

export function useCreateRequest() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createRequest, onSuccess: () => queryClient.invalidateQueries({ queryKey: requestsKeys.all }) });
}
