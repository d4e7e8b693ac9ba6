import { incomingWebhookListSchema, incomingWebhookSchema, okResponseSchema, type IncomingWebhookCreate } from '@bogwan/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

const incomingKey = ['webhooks', 'incoming'] as const;

/** GET /api/webhooks: the incoming webhooks. */
export const incomingWebhooksQueryOptions = () =>
  queryOptions({ queryKey: incomingKey, queryFn: ({ signal }) => apiFetch('/webhooks', { schema: incomingWebhookListSchema, signal }) });

export function useIncomingWebhooks() {
  return useQuery(incomingWebhooksQueryOptions());
}

/** POST /api/webhooks. */
export function useCreateIncomingWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: IncomingWebhookCreate) => apiFetch('/webhooks', { method: 'POST', body, schema: incomingWebhookSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: incomingKey }),
  });
}

/** DELETE /api/webhooks/{id}. */
export function useDeleteIncomingWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch(`/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE', schema: okResponseSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: incomingKey }),
  });
}
