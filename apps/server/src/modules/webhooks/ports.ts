import type { WebhookEvent } from '@bogwan/contracts';

/**
 * What other modules call to tell outgoing webhooks of an event. Never throws and never
 * waits for a delivery: the event is queued and sent in the background.
 */
export interface WebhookEmitter {
  /**
   * `eventId` names the occurrence when the caller has a stable one (the same id queued
   * twice is delivered once); otherwise each call is a new event.
   */
  emit(event: WebhookEvent, payload: Record<string, unknown>, eventId?: string): void;
}
