import {
  allowedHostsSchema,
  incomingWebhookCreateSchema,
  incomingWebhookListSchema,
  incomingWebhookSchema,
  okResponseSchema,
  outgoingWebhookCreatedSchema,
  outgoingWebhookCreateSchema,
  outgoingWebhookListSchema,
  webhookDeliveryListSchema,
} from '@bogwan/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RoutePolicy } from '../../http/policy.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { IncomingWebhooks } from './incoming.service.js';
import type { OutgoingWebhooks } from './outgoing.service.js';

const category = 'webhook';
const policies = {
  list: { category, name: 'webhook_list', description: 'Incoming webhooks', level: 2 },
  create: { category, name: 'webhook_create', description: 'Create an incoming webhook that uploads into a folder', level: 2 },
  remove: { category, name: 'webhook_delete', description: 'Delete an incoming webhook', level: 2 },
  outgoingList: { category, name: 'webhook_outgoing_list', description: 'Outgoing webhooks', level: 2 },
  outgoingCreate: { category, name: 'webhook_outgoing_create', description: 'Subscribe a URL to events (private addresses refused)', level: 2 },
  outgoingRemove: { category, name: 'webhook_outgoing_delete', description: 'Delete an outgoing webhook and its delivery log', level: 2 },
  deliveries: { category, name: 'webhook_deliveries', description: 'Delivery log of an outgoing webhook', level: 2 },
  allowedHosts: { category, name: 'webhook_allowed_hosts', description: 'Host names allowed as targets although private', level: 2 },
  allowedHostsUpdate: { category, name: 'webhook_allowed_hosts_update', description: 'Allow host names as targets although private', level: 2 },
} satisfies Record<string, RoutePolicy>;

export interface WebhookRoutesDeps {
  incoming: IncomingWebhooks;
  outgoing: OutgoingWebhooks;
  audit: AuditRecorder;
  publicUrl: string | undefined;
}

const idParams = z.object({ id: z.string().min(1).max(64) });

/** Administration of incoming and outgoing webhooks (the spec's `/webhooks` calls and the outgoing side). */
export async function webhookRoutes(app: FastifyInstance, { incoming, outgoing, audit, publicUrl }: WebhookRoutesDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];
  const baseUrl = (request: FastifyRequest) => (publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/$/, '');

  r.get('/api/webhooks', { config: { policy: policies.list }, schema: { tags, response: { 200: incomingWebhookListSchema } } }, (request) =>
    incoming.list(baseUrl(request)),
  );

  r.post(
    '/api/webhooks',
    { config: { policy: policies.create }, schema: { tags, body: incomingWebhookCreateSchema, response: { 200: incomingWebhookSchema } } },
    (request) => incoming.create(request.user!, request.body, baseUrl(request), request.ip),
  );

  r.delete(
    '/api/webhooks/:id',
    { config: { policy: policies.remove }, schema: { tags, params: idParams, response: { 200: okResponseSchema } } },
    async (request) => {
      await incoming.remove(request.user!, request.params.id, request.ip);
      return { success: true };
    },
  );

  r.get('/api/webhooks/outgoing', { config: { policy: policies.outgoingList }, schema: { tags, response: { 200: outgoingWebhookListSchema } } }, () =>
    outgoing.list(),
  );

  r.post(
    '/api/webhooks/outgoing',
    {
      config: { policy: policies.outgoingCreate },
      schema: { tags, body: outgoingWebhookCreateSchema, response: { 200: outgoingWebhookCreatedSchema } },
    },
    async (request) => {
      const created = await outgoing.create(request.user!, request.body);
      await audit.record({
        action: 'webhook.create',
        target: { kind: 'webhook', id: created._id, label: created.title },
        params: { direction: 'outgoing', url: created.url, events: created.events.join(',') },
      });
      return created;
    },
  );

  r.delete(
    '/api/webhooks/outgoing/:id',
    { config: { policy: policies.outgoingRemove }, schema: { tags, params: idParams, response: { 200: okResponseSchema } } },
    async (request) => {
      const removed = await outgoing.remove(request.params.id);
      await audit.record({ action: 'webhook.delete', target: { kind: 'webhook', id: request.params.id }, params: { direction: 'outgoing', url: removed.url } });
      return { success: true };
    },
  );

  r.get(
    '/api/webhooks/outgoing/:id/deliveries',
    { config: { policy: policies.deliveries }, schema: { tags, params: idParams, response: { 200: webhookDeliveryListSchema } } },
    (request) => outgoing.deliveries(request.params.id),
  );

  r.get('/api/webhooks/allowed-hosts', { config: { policy: policies.allowedHosts }, schema: { tags, response: { 200: allowedHostsSchema } } }, () =>
    outgoing.allowedHosts(),
  );

  r.put(
    '/api/webhooks/allowed-hosts',
    { config: { policy: policies.allowedHostsUpdate }, schema: { tags, body: allowedHostsSchema, response: { 200: allowedHostsSchema } } },
    async (request) => {
      const saved = await outgoing.setAllowedHosts(request.body.hosts);
      const list = saved.hosts.join(', ') || 'none';
      await audit.record({ action: 'webhook.hosts_change', target: { kind: 'setting', id: 'webhook.allowed_hosts' }, params: { hosts: list } });
      return saved;
    },
  );
}
