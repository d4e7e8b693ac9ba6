import { apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { sharesKeys } from './keys';

/** DELETE /api/share/{id}: the link stops working at once. */
export function revokeShare(id: string): Promise<{ success: boolean }> {
  return callApi(apiCalls.share_delete, { params: { id } });
}

export function useRevokeShare() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeShare, onSuccess: () => queryClient.invalidateQueries({ queryKey: sharesKeys.all }) });
}
