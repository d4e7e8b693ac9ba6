import {
  type AuditAction,
  auditActionName,
  type NotificationKey,
  type NotificationParams,
  type RequestStatus,
  taskNoteKey,
  type WebhookEvent,
} from '@bogwan/contracts';
// The web's Korean catalogue, bundled into the server at build time: the one place the
// Korean wording of notifications lives, so a webhook reads exactly as the bell does.
import ko from '../../../../web/src/i18n/ko.json' with { type: 'json' };

const catalogue: Record<string, string | undefined> = ko;

/**
 * A notification key rendered with the Korean catalogue text, as plain text: `<b>` marks
 * dropped, parameters put in as given. Like the web, a `count` of exactly 1 reads with the
 * `_one` form (Korean itself has a single plural form).
 */
export function koreanNoteText(key: NotificationKey, params: NotificationParams): string {
  const template = (params.count === 1 ? catalogue[`${key}_one`] : undefined) ?? catalogue[key] ?? catalogue[`${key}_other`] ?? key;
  return template.replace(/<\/?b>/g, '').replace(/\{\{\s*([a-zA-Z0-9_]+)(?:\s*,\s*[a-z]+)?\s*\}\}/g, (_, name: string) => {
    const value = params[name];
    return value === undefined ? '' : String(value);
  });
}

/** An audit action's Korean name, followed by what it was about. */
function actionText(action: AuditAction, subject: string | undefined): string {
  const name = auditActionName(action, 'ko');
  return subject ? `${name}: ${subject}` : name;
}

/** The audit action a request's new status was recorded as. */
const REQUEST_STATUS_ACTIONS: Record<RequestStatus, AuditAction> = {
  PENDING: 'request.create',
  APPROVED: 'request.approve',
  REJECTED: 'request.reject',
  CANCELED: 'request.cancel',
  EXPIRED: 'request.expire',
};

const parentOf = (path: string) => path.slice(0, Math.max(1, path.lastIndexOf('/')));
const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The Korean sentence of an outgoing event, from the same wording the activity screens and
 * notifications use: a notification key where the event is one (uploads, finished snapshot
 * runs), the audit action's name otherwise. Receivers (chat rooms, mail bridges) can show it
 * as it is; the machine fields stay in `data`.
 */
export function webhookText(event: WebhookEvent, data: Record<string, unknown>): string {
  switch (event) {
    case 'upload': {
      const path = str(data.path) ?? '';
      return koreanNoteText('note_upload_batch', { folder: parentOf(path), name: str(data.name) ?? path.slice(path.lastIndexOf('/') + 1), count: 1 });
    }
    case 'delete': {
      const paths = Array.isArray(data.paths) ? data.paths.filter((p): p is string => typeof p === 'string') : [];
      const more = paths.length > 1 ? ` (+${paths.length - 1})` : '';
      return actionText('file.trash', paths[0] ? `${paths[0]}${more}` : undefined);
    }
    case 'share.created':
      return actionText('share.create', str(data.path));
    case 'request.state_changed': {
      const action = (REQUEST_STATUS_ACTIONS as Record<string, AuditAction | undefined>)[str(data.status) ?? ''];
      return actionText(action ?? 'request.create', undefined);
    }
    case 'snapshot.finished': {
      const status = str(data.status) ?? '';
      return koreanNoteText(taskNoteKey('snapshot', status), { name: str(data.planName) ?? '', type: 'snapshot', status });
    }
  }
}
