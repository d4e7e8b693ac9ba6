import { type ApprovalRequest, type RequestAction, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { requestsKeys } from './keys';

/** PUT /api/request/{id}: approve, reject (with a reason) or cancel. */
export function actOnRequest(id: string, action: RequestAction, reason?: string): Promise<ApprovalRequest> {
  return callApi(apiCalls.request_update, { params: { id }, body: { action, reason } });
}

export function useActOnRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; action: RequestAction; reason?: string }) => actOnRequest(input.id, input.action, input.reason),
    onSettled: () => queryClient.invalidateQueries({ queryKey: requestsKeys.all }),
  });
}
