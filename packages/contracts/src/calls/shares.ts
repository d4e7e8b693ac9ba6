import { z } from 'zod';
import { SHARE_SCOPES } from '../enums.js';
import { pathField } from './files.js';

/** A share key: 32 random bytes (256 bits) in base64url. */
export const SHARE_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const SHARE_PASSWORD_MIN_LENGTH = 4;
export const SHARE_PASSWORD_MAX_LENGTH = 128;
export const SHARE_DOWNLOAD_LIMIT_MAX = 10_000;
export const SHARE_RECIPIENTS_MAX = 200;
/** Header that carries the token answered by unlocking a password-protected link. */
export const SHARE_TOKEN_HEADER = 'x-share-token';

const idList = z.array(z.string().min(1).max(64)).max(SHARE_RECIPIENTS_MAX);

/**
 * What a link allows. On update, a field left out keeps its value; `password: null`
 * removes the password, `expiresAt: null` and `downloadLimit: null` remove the limit.
 */
const shareRulesSchema = z.object({
  scope: z.enum(SHARE_SCOPES),
  expiresAt: z.iso.datetime({ offset: true, error: 'share_expiry_past' }).nullable().optional(),
  password: z
    .string()
    .min(SHARE_PASSWORD_MIN_LENGTH, { error: 'share_password_rule' })
    .max(SHARE_PASSWORD_MAX_LENGTH, { error: 'share_password_rule' })
    .nullable()
    .optional(),
  downloadLimit: z.number().int().min(1).max(SHARE_DOWNLOAD_LIMIT_MAX).nullable().optional(),
  users: idList.default([]),
  groups: idList.default([]),
  /** Whether visitors may preview files in the browser (links without a download limit). */
  preview: z.boolean().default(true),
});

/** POST /api/share. */
export const createShareRequestSchema = shareRulesSchema.extend({ path: pathField });
export type CreateShareRequest = z.input<typeof createShareRequestSchema>;

/** PUT /api/share/{id}. */
export const updateShareRequestSchema = shareRulesSchema;
export type UpdateShareRequest = z.input<typeof updateShareRequestSchema>;

export const shareIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

const personSchema = z.object({ _id: z.string(), name: z.string(), email: z.string() });
const groupRefSchema = z.object({ _id: z.string(), name: z.string() });

export const SHARE_STATES = ['active', 'expired', 'exceeded'] as const;
export type ShareState = (typeof SHARE_STATES)[number];

/** A link as its creator sees it. */
export const shareLinkSchema = z.object({
  _id: z.string(),
  key: z.string(),
  /** The link's address: absolute when the server knows its public URL, else from the site root. */
  url: z.string(),
  /** Where the item is now; null once it is deleted. */
  path: z.string().nullable(),
  name: z.string(),
  folder: z.boolean(),
  scope: z.enum(SHARE_SCOPES),
  users: z.array(personSchema),
  groups: z.array(groupRefSchema),
  expiresAt: z.string().nullable(),
  hasPassword: z.boolean(),
  downloadLimit: z.number().int().nullable(),
  downloadCount: z.number().int(),
  downloadsLeft: z.number().int().nullable(),
  preview: z.boolean(),
  state: z.enum(SHARE_STATES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

/** A link someone made for the caller (scope specific). */
export const sharedItemSchema = z.object({
  _id: z.string(),
  key: z.string(),
  url: z.string(),
  name: z.string(),
  folder: z.boolean(),
  size: z.number(),
  expiresAt: z.string().nullable(),
  hasPassword: z.boolean(),
  creator: personSchema,
  createdAt: z.string(),
});
export type SharedItem = z.infer<typeof sharedItemSchema>;

/** GET /api/share: the caller's links and the items shared with the caller. */
export const shareListSchema = z.object({ mine: z.array(shareLinkSchema), sharedWithMe: z.array(sharedItemSchema) });
export type ShareList = z.infer<typeof shareListSchema>;

export const shareKeyParamsSchema = z.object({ key: z.string().max(128) });

/**
 * GET /api/share/public/{key}: what the link shows. While a password is needed and not
 * given, the name and size stay hidden.
 */
export const publicShareSchema = z.object({
  name: z.string().nullable(),
  folder: z.boolean().nullable(),
  size: z.number().nullable(),
  expiresAt: z.string().nullable(),
  passwordRequired: z.boolean(),
  /** True when no password is needed or a valid share token came with the call. */
  unlocked: z.boolean(),
  downloadsLeft: z.number().int().nullable(),
  preview: z.boolean(),
  creator: z.string(),
});
export type PublicShare = z.infer<typeof publicShareSchema>;

export const shareUnlockRequestSchema = z.object({ password: z.string().max(SHARE_PASSWORD_MAX_LENGTH) });
export const shareUnlockResponseSchema = z.object({ shareToken: z.string() });

/** Paths inside a shared folder are relative to it: `/` is the shared folder itself. */
export const publicSharePathQuerySchema = z.object({ path: pathField.default('/') });

export const publicShareEntrySchema = z.object({
  name: z.string(),
  path: z.string(),
  folder: z.boolean(),
  size: z.number(),
  mtime: z.string(),
  lock: z.boolean(),
});
export type PublicShareEntry = z.infer<typeof publicShareEntrySchema>;
export const publicShareListSchema = z.object({ path: z.string(), items: z.array(publicShareEntrySchema) });
export type PublicShareList = z.infer<typeof publicShareListSchema>;

/**
 * POST /api/share/public/{key}/ticket: the item inside the link to download (`/` is the
 * link's item). The share token may come in the body instead of the X-Share-Token header.
 */
export const shareDownloadTicketRequestSchema = z.object({ path: pathField.default('/'), shareToken: z.string().max(200).optional() });
/** A single-use ticket, valid one minute, for GET /api/share/public/download?ticket=. */
export const shareDownloadTicketSchema = z.object({ ticket: z.string() });
export const shareDownloadTicketQuerySchema = z.object({ ticket: z.string().min(1).max(2000) });
