import type { DeliveryStatus, WebhookEvent } from '@bogwan/contracts';
import { k } from '../../../i18n/keys';

export const EVENT_LABELS = {
  upload: k('webhook_event_upload'),
  delete: k('webhook_event_delete'),
  'share.created': k('webhook_event_share_created'),
  'request.state_changed': k('webhook_event_request_state_changed'),
  'snapshot.finished': k('webhook_event_snapshot_finished'),
} as const satisfies Record<WebhookEvent, string>;

export const DELIVERY_STATUS_LABELS = {
  pending: k('webhook_delivery_pending'),
  delivered: k('webhook_delivery_delivered'),
  failed: k('webhook_delivery_failed'),
} as const satisfies Record<DeliveryStatus, string>;
