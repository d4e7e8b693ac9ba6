import { shareLinkSchema, type CreateShareRequest, type ShareLink, type UpdateShareRequest } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { sharesKeys } from './keys';

/** POST /api/share: a new link. */
export function createShare(body: CreateShareRequest): Promise<ShareLink> {
  return apiFetch('/share', { method: 'POST', body, schema: shareLinkSchema });
}

/** PUT /api/share/{id}: changes a link's rules. */
export function updateShare(id: string, body: UpdateShareRequest): Promise<ShareLink> {
  return apiFetch(`/share/${encodeURIComponent(id)}`, { method: 'PUT', body, schema: shareLinkSchema });
}

export function useSaveShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id?: string; create?: CreateShareRequest; update?: UpdateShareRequest }) =>
      input.id ? updateShare(input.id, input.update!) : createShare(input.create!),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharesKeys.all }),
  });
}
