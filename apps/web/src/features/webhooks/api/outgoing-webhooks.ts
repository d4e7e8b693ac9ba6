import { type OutgoingWebhookCreate, apiCalls } from '@bogwan/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

const outgoingKey = ['webhooks', 'outgoing'] as const;
const allowedHostsKey = ['webhooks', 'allowed-hosts'] as const;

/** GET /api/webhooks/outgoing. */
export const outgoingWebhooksQueryOptions = () =>
  queryOptions({ queryKey: outgoingKey, queryFn: ({ signal }) => callApi(apiCalls.webhook_outgoing_list, { signal }) });

export function useOutgoingWebhooks() {
  return useQuery(outgoingWebhooksQueryOptions());
}

/** POST /api/webhooks/outgoing: the answer carries the signing secret, shown once. */
export function useCreateOutgoingWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: OutgoingWebhookCreate) => callApi(apiCalls.webhook_outgoing_create, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: outgoingKey }),
  });
}

/** DELETE /api/webhooks/outgoing/{id}. */
export function useDeleteOutgoingWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callApi(apiCalls.webhook_outgoing_delete, { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: outgoingKey }),
  });
}

/** GET /api/webhooks/outgoing/{id}/deliveries: the delivery log, newest first (refreshed while open). */
export function useDeliveries(id: string) {
  return useQuery({
    queryKey: [...outgoingKey, id, 'deliveries'],
    queryFn: ({ signal }) => callApi(apiCalls.webhook_deliveries, { params: { id }, signal }),
    refetchInterval: 5000,
  });
}

/** GET /api/webhooks/allowed-hosts. */
export function useAllowedHosts() {
  return useQuery({ queryKey: allowedHostsKey, queryFn: ({ signal }) => callApi(apiCalls.webhook_allowed_hosts, { signal }) });
}

/** PUT /api/webhooks/allowed-hosts. */
export function useSetAllowedHosts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (hosts: string[]) => callApi(apiCalls.webhook_allowed_hosts_update, { body: { hosts } }),
    onSuccess: (saved) => client.setQueryData(allowedHostsKey, saved),
  });
}
