import { z } from 'zod';
import { REQUEST_STATUSES } from '../enums.js';
import { pathField } from './files.js';

export const REQUEST_TYPES = ['download', 'share'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

export const REQUEST_ACTIONS = ['approve', 'reject', 'cancel'] as const;
export type RequestAction = (typeof REQUEST_ACTIONS)[number];

export const REQUEST_BOXES = ['mine', 'approve'] as const;
export type RequestBox = (typeof REQUEST_BOXES)[number];

export const REQUEST_REASON_MAX_LENGTH = 500;
export const REQUEST_PATHS_MAX = 50;
export const REQUEST_DOWNLOAD_LIMIT_MAX = 100;
/** A request nobody decides lapses (EXPIRED) this many days after it was made. */
export const REQUEST_PENDING_DAYS = 7;
/** An approval can be used this many days; then the request is EXPIRED. */
export const REQUEST_APPROVAL_DAYS = 7;

/** POST /api/request. */
export const createRequestSchema = z.object({
  type: z.enum(REQUEST_TYPES),
  paths: z.array(pathField).min(1).max(REQUEST_PATHS_MAX),
  reason: z
    .string({ error: 'request_reason_required' })
    .trim()
    .min(1, { error: 'request_reason_required' })
    .max(REQUEST_REASON_MAX_LENGTH, { error: 'request_reason_required' }),
  downloadLimit: z.number().int().min(1).max(REQUEST_DOWNLOAD_LIMIT_MAX).default(1),
});
export type CreateRequest = z.input<typeof createRequestSchema>;

export const requestListQuerySchema = z.object({ box: z.enum(REQUEST_BOXES).default('mine') });
export const requestIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** PUT /api/request/{id}: a reason is required to reject. */
export const requestActionSchema = z.object({
  action: z.enum(REQUEST_ACTIONS),
  reason: z.string().trim().max(REQUEST_REASON_MAX_LENGTH).optional(),
});
export type RequestActionBody = z.input<typeof requestActionSchema>;

const personSchema = z.object({ _id: z.string(), name: z.string(), email: z.string() });

/** The spec's Request, with what the caller may do with it. */
export const approvalRequestSchema = z.object({
  _id: z.string(),
  type: z.enum(REQUEST_TYPES),
  status: z.enum(REQUEST_STATUSES),
  requester: personSchema,
  /** Who decided (approved or rejected); null while pending. */
  approver: personSchema.nullable(),
  /** The paths asked for, as they were named. */
  contents: z.array(z.string()),
  reason: z.string(),
  rejectReason: z.string().nullable(),
  downloadLimit: z.number().int(),
  downloadCount: z.number().int(),
  downloadsLeft: z.number().int(),
  /** Share requests: whether the link was created. */
  used: z.boolean(),
  requestDate: z.string(),
  approvalDate: z.string().nullable(),
  finalApprovalDate: z.string().nullable(),
  processingDate: z.string().nullable(),
  /** Pending: when it lapses; approved: the end of its validity. */
  expiresAt: z.string(),
  canApprove: z.boolean(),
  canCancel: z.boolean(),
});
export type ApprovalRequest = z.infer<typeof approvalRequestSchema>;
export const approvalRequestListSchema = z.array(approvalRequestSchema);

/** GET /api/request/secure?path=: whether a path lies in (or holds) a secure folder. */
export const secureStatusQuerySchema = z.object({ path: pathField });
export const secureStatusSchema = z.object({
  /** The path is a locked folder or lies inside one. */
  secure: z.boolean(),
  /** The path is a folder holding a locked folder. */
  holdsSecure: z.boolean(),
  /** The caller holds an approved download request with downloads left covering the path. */
  downloadApproved: z.boolean(),
});
export type SecureStatus = z.infer<typeof secureStatusSchema>;
