import { z } from 'zod';

/** The task types and outcomes a finished task notifies about, each with its own key. */
const TASK_NOTE_TYPES = ['upload', 'sync', 'snapshot', 'restore'] as const;
const TASK_NOTE_OUTCOMES = ['completed', 'canceled', 'failure'] as const;

/** `note_task_<type>_<outcome>`: a finished background task, with `{name}`. */
export const taskNoteKey = (type: string, outcome: string): NotificationKey => {
  const key = `note_task_${type}_${outcome}`;
  return (NOTIFICATION_KEYS as readonly string[]).includes(key) ? (key as NotificationKey) : 'note_task_other';
};

/**
 * Every message key a notification is stored with. The web renders them through its
 * catalogues in the reader's language (so each key is in ko.json and en.json); `<b>` in a
 * catalogue text marks emphasis, and parameters are always shown as text.
 * Parameters per key:
 * - note_upload_batch: `folder`, `count` (files in the batch), `name` (the first file)
 * - note_task_*: `name`; note_task_other also `type` and `status`
 * - note_request_*_(download|share): `what` (first path, `(+n)` for more); asked/canceled `by`, approved `by`, rejected `reason`
 * - note_group_added: `group`, `by`
 * - note_share_received: `by`, `name` (the shared item's name)
 * - note_licence_ends_today: `date`; note_licence_ends_in: `count` (days), `date`
 * - note_legacy: `text`, a message stored before keys existed (kept markup, sanitised)
 */
export const NOTIFICATION_KEYS = [
  'note_upload_batch',
  ...TASK_NOTE_TYPES.flatMap((type) => TASK_NOTE_OUTCOMES.map((outcome) => `note_task_${type}_${outcome}` as const)),
  'note_task_other',
  'note_request_asked_download',
  'note_request_asked_share',
  'note_request_approved_download',
  'note_request_approved_share',
  'note_request_rejected_download',
  'note_request_rejected_share',
  'note_request_canceled_download',
  'note_request_canceled_share',
  'note_request_expired_download',
  'note_request_expired_share',
  'note_group_added',
  'note_share_received',
  'note_licence_ends_today',
  'note_licence_ends_in',
  'note_legacy',
] as const;
export type NotificationKey = (typeof NOTIFICATION_KEYS)[number];

/** Keys whose text depends on `count` (i18next plural forms `_one` / `_other`). */
export const COUNTED_NOTIFICATION_KEYS: readonly NotificationKey[] = ['note_upload_batch', 'note_licence_ends_in'];

/** A notification's parameters: names, paths and numbers, rendered as text only. */
export const notificationParamsSchema = z.record(z.string(), z.union([z.string(), z.number()]));
export type NotificationParams = z.infer<typeof notificationParamsSchema>;
