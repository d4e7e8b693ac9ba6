import { type CreateShareRequest, type ShareLink, type UpdateShareRequest, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { sharesKeys } from './keys';

/** POST /api/share: a new link. */
export function createShare(body: CreateShareRequest): Promise<ShareLink> {
  return callApi(apiCalls.share_create, { body });
}

/** PUT /api/share/{id}: changes a link's rules. */
export function updateShare(id: string, body: UpdateShareRequest): Promise<ShareLink> {
  return callApi(apiCalls.share_update, { params: { id }, body });
}

export function useSaveShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id?: string; create?: CreateShareRequest; update?: UpdateShareRequest }) =>
      input.id ? updateShare(input.id, input.update!) : createShare(input.create!),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharesKeys.all }),
  });
}
