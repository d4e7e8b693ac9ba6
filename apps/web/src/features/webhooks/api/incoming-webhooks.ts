import { type IncomingWebhookCreate, apiCalls } from '@bogwan/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

const incomingKey = ['webhooks', 'incoming'] as const;

/** GET /api/webhooks: the incoming webhooks. */
export const incomingWebhooksQueryOptions = () => queryOptions({ queryKey: incomingKey, queryFn: ({ signal }) => callApi(apiCalls.webhook_list, { signal }) });

export function useIncomingWebhooks() {
  return useQuery(incomingWebhooksQueryOptions());
}

/** POST /api/webhooks. */
export function useCreateIncomingWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: IncomingWebhookCreate) => callApi(apiCalls.webhook_create, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: incomingKey }),
  });
}

/** DELETE /api/webhooks/{id}. */
export function useDeleteIncomingWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callApi(apiCalls.webhook_delete, { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: incomingKey }),
  });
}
