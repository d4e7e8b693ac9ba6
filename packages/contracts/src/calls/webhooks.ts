import { z } from 'zod';
import { pathField } from './files.js';

/** The token that names an incoming webhook in its URL: letters, digits, `-` and `_`. */
export const WEBHOOK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
export const WEBHOOK_ACCESS_TOKEN_MIN = 16;
export const WEBHOOK_ACCESS_TOKEN_MAX = 256;
/** Largest file one incoming webhook call may upload. */
export const WEBHOOK_MAX_FILE_BYTES = 1_073_741_824;

/** An incoming webhook card: the spec's Webhook without its access token (never shown again). */
export const incomingWebhookSchema = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  /** The address an outside system sends files to. */
  url: z.string(),
  token: z.string(),
  path: z.string(),
  createdAt: z.string(),
  userId: z.string().nullable(),
  userEmail: z.string(),
});
export type IncomingWebhook = z.infer<typeof incomingWebhookSchema>;
export const incomingWebhookListSchema = z.array(incomingWebhookSchema);

/**
 * `POST /api/webhooks`: token, accessToken and path are required; `url`, `userId` and
 * `userEmail` as the spec's client sends them are ignored (the server sets them).
 */
export const incomingWebhookCreateSchema = z.object({
  title: z.string().trim().max(100).default(''),
  description: z.string().trim().max(500).default(''),
  token: z.string({ error: 'webhook_token_pattern' }).regex(WEBHOOK_TOKEN_PATTERN, { error: 'webhook_token_pattern' }),
  accessToken: z
    .string({ error: 'webhook_access_token_length' })
    .min(WEBHOOK_ACCESS_TOKEN_MIN, { error: 'webhook_access_token_length' })
    .max(WEBHOOK_ACCESS_TOKEN_MAX, { error: 'webhook_access_token_length' }),
  path: pathField,
  url: z.string().optional(),
  userId: z.string().optional(),
  userEmail: z.string().optional(),
});
export type IncomingWebhookCreate = z.input<typeof incomingWebhookCreateSchema>;

/** Answer of an incoming webhook call: where the file went. */
export const incomingUploadResponseSchema = z.object({ success: z.literal(true), path: z.string(), size: z.number() });

/** Events an outgoing webhook can subscribe to. */
export const WEBHOOK_EVENTS = ['upload', 'delete', 'share.created', 'request.state_changed', 'snapshot.finished'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Header names of a delivery. The signature is `t=<unix seconds>,v1=<hex HMAC-SHA-256 of "<t>.<body>">`. */
export const WEBHOOK_HEADERS = {
  signature: 'x-bogwan-signature',
  event: 'x-bogwan-event',
  delivery: 'x-bogwan-delivery',
  /** The event's id, stable across retries: a receiver that saw it already can answer 2xx and do nothing. */
  idempotencyKey: 'idempotency-key',
} as const;

export const outgoingWebhookSchema = z.object({
  _id: z.string(),
  title: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  createdAt: z.string(),
  userId: z.string().nullable(),
  userEmail: z.string(),
});
export type OutgoingWebhook = z.infer<typeof outgoingWebhookSchema>;
export const outgoingWebhookListSchema = z.array(outgoingWebhookSchema);
/** The create answer carries the signing secret, shown once. */
export const outgoingWebhookCreatedSchema = outgoingWebhookSchema.extend({ secret: z.string() });

export const outgoingWebhookCreateSchema = z.object({
  title: z.string().trim().max(100).default(''),
  url: z
    .string({ error: 'webhook_url_invalid' })
    .trim()
    .max(2048)
    .pipe(z.url({ protocol: /^https?$/, error: 'webhook_url_invalid' })),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1, { error: 'webhook_events_required' }),
});
export type OutgoingWebhookCreate = z.input<typeof outgoingWebhookCreateSchema>;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One delivery of an event to an outgoing webhook, with its last outcome. */
export const webhookDeliverySchema = z.object({
  _id: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveryListSchema = z.array(webhookDeliverySchema);

/**
 * True for a host that is an IP address as a URL reads it: IPv6 in brackets, dotted IPv4,
 * or anything a URL turns into IPv4 (a last label of digits or hex: `2130706433`, `0x7f.1`).
 */
export function isIpLiteralHost(host: string): boolean {
  if (host.startsWith('[') || host.includes(':')) return true;
  const last = host.replace(/\.$/, '').split('.').pop() ?? '';
  return /^(0x[0-9a-f]*|[0-9]+)$/i.test(last);
}

/**
 * Host names an administrator allows as targets although they resolve to private
 * addresses. Names only: an allowed host skips the address check, so an IP address there
 * would open that address itself (400 `webhook_allowed_host_ip`).
 */
export const allowedHostsSchema = z.object({
  hosts: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .min(1)
        .max(253)
        .regex(/^[a-z0-9.-]+$/)
        .refine((host) => !isIpLiteralHost(host), { error: 'webhook_allowed_host_ip' }),
    )
    .max(50),
});
export type AllowedHosts = z.infer<typeof allowedHostsSchema>;
