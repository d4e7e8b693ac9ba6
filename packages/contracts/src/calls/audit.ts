import { z } from 'zod';
import { ACTIVITY_FETCH_LIMIT } from '../limits.js';

/**
 * The audit trail's fixed vocabulary. A record names one of these actions; what the
 * screen shows is rendered from the action and its params in ko or en, never stored text
 * (except `legacy`: rows of the old activity log, kept with their English message).
 */
export const AUDIT_ACTIONS = [
  // Sign-in and factors
  'auth.setup',
  'auth.sign_in',
  'auth.sign_in_failed',
  'auth.locked',
  'auth.sign_out',
  'auth.password_change',
  'auth.password_check_failed',
  'auth.factor_change',
  'auth.app_password_create',
  'auth.app_password_revoke',
  // Accounts
  'account.create',
  'account.update',
  'account.delete',
  'account.status',
  'account.role',
  'account.avatar',
  // Groups and permissions
  'group.create',
  'group.update',
  'group.delete',
  'group.members',
  'permission.change',
  'permission.default_change',
  // Files
  'file.view',
  'file.download',
  'file.download_zip',
  'file.download_version',
  'file.version_restore',
  'file.version_delete',
  'file.upload',
  'file.move',
  'file.copy',
  'file.rename',
  'file.mkdir',
  'file.lock',
  'file.trash',
  'file.purge',
  'file.restore',
  'file.volume',
  // Share links
  'share.create',
  'share.update',
  'share.revoke',
  'share.download',
  'share.unlock_failed',
  // Requests for secure folders
  'request.create',
  'request.approve',
  'request.reject',
  'request.cancel',
  'request.expire',
  // Settings, licence, administration
  'settings.change',
  'licence.apply',
  'licence.refused',
  'admin_mode.on',
  'admin_mode.off',
  'admin_mode.refused',
  // Snapshots and restores
  'snapshot.run',
  'snapshot.restore',
  'snapshot.plan_change',
  // Webhooks, notices, storage
  'webhook.create',
  'webhook.delete',
  'webhook.call',
  'webhook.refused',
  'webhook.hosts_change',
  'notice.create',
  'notice.delete',
  'storage.sync',
  // The audit trail itself
  'audit.purge',
  'audit.retention_change',
  'audit.export',
  // Rows of the activity log before the audit trail (their English message in params.message)
  'legacy',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The family of an action (`file.download` → `file`): the spec's `service` column. */
export function auditService(action: string): string {
  const dot = action.indexOf('.');
  return dot < 0 ? action : action.slice(0, dot);
}

/**
 * Who acted: an account; a visitor of a share link (id = the link's id); an app password
 * (id = the password's id, accountId = its owner); an incoming or outgoing webhook
 * (id = the webhook's id); the server itself (schedules, housekeeping).
 */
export const AUDIT_ACTOR_KINDS = ['account', 'share_link', 'app_password', 'webhook', 'system'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** `refused` records carry the reason as a message key (`no_access_warning`, …). */
export const AUDIT_OUTCOMES = ['allowed', 'refused'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** What an action was done to. `node` targets carry the node id and its NFC path. */
export const AUDIT_TARGET_KINDS = [
  'node',
  'account',
  'group',
  'share',
  'request',
  'setting',
  'licence',
  'snapshot_plan',
  'webhook',
  'notice',
  'app_password',
  'audit',
] as const;
export type AuditTargetKind = (typeof AUDIT_TARGET_KINDS)[number];

/** Params: a small flat object of scalars (names, counts, old and new values). */
export const auditParamsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type AuditParams = z.infer<typeof auditParamsSchema>;
/** Longest JSON text of one record's params; longer values are cut by the server. */
export const AUDIT_PARAMS_MAX_CHARS = 4000;

/** Retention of the audit trail in years: the default, and the least an administrator may set. */
export const AUDIT_RETENTION_DEFAULT_YEARS = 2;
export const AUDIT_RETENTION_MIN_YEARS = 1;
export const AUDIT_RETENTION_MAX_YEARS = 50;
/** `total` counts at most this many rows (counting millions on every page is not worth it). */
export const AUDIT_COUNT_CAP = 10_000;

/** One audit record as the API answers it. */
export const auditRecordSchema = z.object({
  /** The record's sequence number as text (also its cursor). */
  _id: z.string(),
  seq: z.number().int(),
  createdAt: z.string(),
  action: z.string(),
  outcome: z.enum(AUDIT_OUTCOMES),
  /** Message key of a refusal, else null. */
  reason: z.string().nullable(),
  actor: z.object({
    kind: z.enum(AUDIT_ACTOR_KINDS),
    /** Account id, share link id, app password id or webhook id; null for the system. */
    id: z.string().nullable(),
    /** The account behind the actor (itself, or the app password's owner), if any. */
    accountId: z.string().nullable(),
    /** Name and e-mail as they were when the record was written. */
    label: z.string().nullable(),
    /** The account's name now (null when the account is gone or there is none). */
    name: z.string().nullable(),
    email: z.string().nullable(),
  }),
  target: z
    .object({
      kind: z.enum(AUDIT_TARGET_KINDS),
      id: z.string().nullable(),
      path: z.string().nullable(),
      label: z.string().nullable(),
    })
    .nullable(),
  params: auditParamsSchema,
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** The spec's activity columns: `service` is the action's family; `message` a short English fallback. */
  service: z.string(),
  message: z.string(),
  userId: z.string().nullable(),
});
export type AuditRecord = z.infer<typeof auditRecordSchema>;

/** A comma-separated list or repeated parameter, each an action of the vocabulary. */
const actionsParam = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((a) => a.trim()).filter(Boolean))
  .pipe(z.array(z.enum(AUDIT_ACTIONS)).max(AUDIT_ACTIONS.length));

const isoDate = z.string().refine((v) => !Number.isNaN(Date.parse(v)), { error: 'invalid_request_message' });

/** The filters shared by the list and the export. */
export const auditFilterSchema = z.object({
  /** The spec's parameter: an account id (same as `actor`). */
  userId: z.string().max(64).optional(),
  /** Records whose actor is this account (or its app passwords). */
  actor: z.string().max(64).optional(),
  /** A file or folder path: the records of it and of everything under it. */
  path: z.string().min(1).max(4096).optional(),
  /** A node id: the records of that file or folder (per-file history). */
  node: z.string().max(64).optional(),
  action: actionsParam.optional(),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  /** ISO times; `from` inclusive, `to` exclusive. */
  from: isoDate.optional(),
  to: isoDate.optional(),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

/** `GET /api/event`: newest first. `before` (a seq) pages by cursor; `skip` is kept for the spec's call. */
export const auditQuerySchema = auditFilterSchema.extend({
  before: z.coerce.number().int().min(1).optional(),
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(ACTIVITY_FETCH_LIMIT).default(ACTIVITY_FETCH_LIMIT),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditListSchema = z.object({
  items: z.array(auditRecordSchema),
  /** Matching rows, counted up to AUDIT_COUNT_CAP (then `totalCapped` is true). */
  total: z.number().int(),
  totalCapped: z.boolean(),
  /** The `before` value of the next (older) page; null on the last page. */
  next: z.string().nullable(),
});
export type AuditList = z.infer<typeof auditListSchema>;

/** `GET /api/event/node/:nodeId`: the history of one file or folder (view, download, changes). */
export const auditNodeParamsSchema = z.object({ nodeId: z.string().min(1).max(64) });
export const auditNodeQuerySchema = z.object({
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(ACTIVITY_FETCH_LIMIT).default(100),
});

/** `GET /api/event/people?q=`: accounts whose name or e-mail contains q (administrators: anyone; others: themselves). */
export const auditPeopleQuerySchema = z.object({ q: z.string().max(200).default('') });
export const auditPersonSchema = z.object({ _id: z.string(), name: z.string(), email: z.string() });
export const auditPeopleSchema = z.object({ items: z.array(auditPersonSchema) });
export type AuditPerson = z.infer<typeof auditPersonSchema>;
/** Suggestions answered at most. */
export const AUDIT_PEOPLE_LIMIT = 20;

export const AUDIT_EXPORT_FORMATS = ['csv', 'jsonl'] as const;
/** `GET /api/event/export?format=csv|jsonl&lang=ko|en&<filters>`: every matching row, newest first, streamed. */
export const auditExportQuerySchema = auditFilterSchema.extend({
  format: z.enum(AUDIT_EXPORT_FORMATS).default('csv'),
  lang: z.enum(['ko', 'en']).default('ko'),
});
export type AuditExportQuery = z.infer<typeof auditExportQuerySchema>;

/**
 * `GET /api/event/export?ticket=…`: the export a ticket stands for (then the other
 * parameters are ignored: the ticket carries the filter), or the query above with the
 * bearer token.
 */
export const auditExportDownloadQuerySchema = auditExportQuerySchema.extend({ ticket: z.string().max(8000).optional() });

/** `POST /api/event/export/ticket?<export query>`: a single-use address (about a minute) the browser downloads from. */
export const auditExportTicketSchema = z.object({ url: z.string() });
export type AuditExportTicket = z.infer<typeof auditExportTicketSchema>;

/** `GET/PUT /api/setting/audit`: how long records are kept. */
export const auditSettingsSchema = z.object({
  retentionYears: z.number().int().min(AUDIT_RETENTION_MIN_YEARS).max(AUDIT_RETENTION_MAX_YEARS),
});
export type AuditSettings = z.infer<typeof auditSettingsSchema>;
