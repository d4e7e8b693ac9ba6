import { z } from 'zod';
import { ROLES, USER_STATUSES } from '../enums.js';
import { BULK_REGISTER_MAX_ROWS } from '../limits.js';
import { emailField, nameField, passwordField, userSchema } from './auth.js';
import { folderAccessSchema } from './permissions.js';

/** A group as an account lists it. */
export const groupRefSchema = z.object({ _id: z.string(), name: z.string() });

/** An account as administrators see it: the user plus their groups. */
export const accountSchema = userSchema.extend({
  groups: z.array(groupRefSchema),
});
export type Account = z.infer<typeof accountSchema>;
export const accountListSchema = z.array(accountSchema);

export const accountQuerySchema = z.object({ _id: z.string().max(64).optional() });

/** A user's public profile (`/user/{email}`), readable by every signed-in user. */
export const profileSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  description: z.string(),
  role: z.enum(ROLES),
  roleLevel: z.number().int(),
  profileImage: z.string().nullable(),
  groups: z.array(groupRefSchema),
  createdAt: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;
export const profileListSchema = z.array(profileSchema);
export const profileQuerySchema = z.object({
  _id: z.string().max(64).optional(),
  email: z.string().max(254).optional(),
  keyword: z.string().max(50).optional(),
});

/**
 * PUT /api/user. Every field but `_id` is optional; only what is sent changes. Name: the
 * account itself or an administrator. Role, status, approved, groups: administrators within
 * the spec's role rules. `profileImage: null` removes the avatar.
 */
export const updateAccountRequestSchema = z.object({
  _id: z.string().min(1).max(64),
  name: nameField.optional(),
  role: z.enum(ROLES).optional(),
  status: z.enum(USER_STATUSES).optional(),
  approved: z.boolean().optional(),
  groups: z.array(z.string().max(64)).max(500).optional(),
  profileImage: z.null().optional(),
});
export type UpdateAccountRequest = z.input<typeof updateAccountRequestSchema>;

/** POST /api/user: a new account; without a password it gets the system's initial password. */
export const createAccountRequestSchema = z.object({
  name: nameField,
  email: emailField,
  password: passwordField.optional(),
  approved: z.boolean().optional(),
  status: z.enum(USER_STATUSES).optional(),
  groups: z.array(z.string().max(64)).max(500).optional(),
});
export type CreateAccountRequest = z.input<typeof createAccountRequestSchema>;

/** POST /api/user/admin: an administrator deletes an account (`adminId` is the caller and is ignored). */
export const deleteAccountByAdminRequestSchema = z.object({ accountId: z.string().min(1).max(64), adminId: z.string().max(64).optional() });

export const DELETE_ACCOUNT_REASONS = ['low_usage', 'delete_personal_data', 'service_inconvenient', 'other'] as const;
export type DeleteAccountReason = (typeof DELETE_ACCOUNT_REASONS)[number];

/** POST /api/user/account: delete one's own account. */
export const deleteOwnAccountRequestSchema = z.object({
  _id: z.string().min(1).max(64),
  password: z.string({ error: 'rules_password' }).min(1, { error: 'rules_password' }).max(80),
  reason: z.enum(DELETE_ACCOUNT_REASONS, { error: 'delete_account_reason_choice' }),
});
export type DeleteOwnAccountRequest = z.input<typeof deleteOwnAccountRequestSchema>;

/** The note of the create-account dialog: the password new accounts receive. */
export const initialPasswordSchema = z.object({ password: z.string() });

/** A row of bulk registration as read from the sheet or edited in the preview. */
export const bulkRowSchema = z.object({
  name: z.string().max(200),
  email: z.string().max(254),
  password: z.string().max(80).optional(),
  groups: z.array(z.string().max(100)).max(50).optional(),
  /**
   * Why the row cannot be registered: a message key. Invalid rows name the field; duplicate
   * rows say whose the email is: `rules_email_duplicate` (an existing account) or
   * `bulk_email_repeated` (an earlier row of the same list).
   */
  error: z.string().optional(),
});
export type BulkRow = z.infer<typeof bulkRowSchema>;

/** POST /api/user/excel and /api/user/register/check: the three preview lists. */
export const bulkPreviewSchema = z.object({
  invalid: z.array(bulkRowSchema),
  duplicate: z.array(bulkRowSchema),
  available: z.array(bulkRowSchema),
});
export type BulkPreview = z.infer<typeof bulkPreviewSchema>;

export const bulkListRequestSchema = z.object({ list: z.array(bulkRowSchema).max(BULK_REGISTER_MAX_ROWS) });
export type BulkListRequest = z.input<typeof bulkListRequestSchema>;
export const bulkRegisterResponseSchema = z.object({ created: z.number().int() });

/** A user's access per root folder (edit user dialog, permission tab). */
export const accountPermissionsSchema = z.array(folderAccessSchema);
export const accountIdParamsSchema = z.object({ id: z.string().min(1).max(64) });
