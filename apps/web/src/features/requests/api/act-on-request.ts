import { approvalRequestSchema, type ApprovalRequest, type RequestAction } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { requestsKeys } from './keys';

/** PUT /api/request/{id}: approve, reject (with a reason) or cancel. */
export function actOnRequest(id: string, action: RequestAction, reason?: string): Promise<ApprovalRequest> {
  return apiFetch(`/request/${encodeURIComponent(id)}`, { method: 'PUT', body: { action, reason }, schema: approvalRequestSchema });
}

export function useActOnRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; action: RequestAction; reason?: string }) => actOnRequest(input.id, input.action, input.reason),
    onSettled: () => queryClient.invalidateQueries({ queryKey: requestsKeys.all }),
  });
}
