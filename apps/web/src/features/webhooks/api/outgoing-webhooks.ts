import {
  allowedHostsSchema,
  okResponseSchema,
  outgoingWebhookCreatedSchema,
  outgoingWebhookListSchema,
  webhookDeliveryListSchema,
  type OutgoingWebhookCreate,
} from '@bogwan/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

const outgoingKey = ['webhooks', 'outgoing'] as const;
const allowedHostsKey = ['webhooks', 'allowed-hosts'] as const;

/** GET /api/webhooks/outgoing. */
export const outgoingWebhooksQueryOptions = () =>
  queryOptions({ queryKey: outgoingKey, queryFn: ({ signal }) => apiFetch('/webhooks/outgoing', { schema: outgoingWebhookListSchema, signal }) });

export function useOutgoingWebhooks() {
  return useQuery(outgoingWebhooksQueryOptions());
}

/** POST /api/webhooks/outgoing: the answer carries the signing secret, shown once. */
export function useCreateOutgoingWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: OutgoingWebhookCreate) => apiFetch('/webhooks/outgoing', { method: 'POST', body, schema: outgoingWebhookCreatedSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: outgoingKey }),
  });
}

/** DELETE /api/webhooks/outgoing/{id}. */
export function useDeleteOutgoingWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch(`/webhooks/outgoing/${encodeURIComponent(id)}`, { method: 'DELETE', schema: okResponseSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: outgoingKey }),
  });
}

/** GET /api/webhooks/outgoing/{id}/deliveries: the delivery log, newest first (refreshed while open). */
export function useDeliveries(id: string) {
  return useQuery({
    queryKey: [...outgoingKey, id, 'deliveries'],
    queryFn: ({ signal }) => apiFetch(`/webhooks/outgoing/${encodeURIComponent(id)}/deliveries`, { schema: webhookDeliveryListSchema, signal }),
    refetchInterval: 5000,
  });
}

/** GET /api/webhooks/allowed-hosts. */
export function useAllowedHosts() {
  return useQuery({ queryKey: allowedHostsKey, queryFn: ({ signal }) => apiFetch('/webhooks/allowed-hosts', { schema: allowedHostsSchema, signal }) });
}

/** PUT /api/webhooks/allowed-hosts. */
export function useSetAllowedHosts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (hosts: string[]) => apiFetch('/webhooks/allowed-hosts', { method: 'PUT', body: { hosts }, schema: allowedHostsSchema }),
    onSuccess: (saved) => client.setQueryData(allowedHostsKey, saved),
  });
}
