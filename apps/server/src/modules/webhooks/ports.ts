import type { WebhookEvent } from '@bogwan/contracts';

/**
 * What other modules call to tell outgoing webhooks of an event. Never throws and never
 * waits for a delivery: the event is queued and sent in the background.
 */
export interface WebhookEmitter {
  emit(event: WebhookEvent, payload: Record<string, unknown>): void;
}
