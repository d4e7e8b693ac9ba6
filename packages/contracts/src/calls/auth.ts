import { z } from 'zod';
import { LOCAL_PROVIDER, ROLES, USER_STATUSES } from '../enums.js';
import { PASSWORD_MAX_LENGTH } from '../limits.js';
import { EMAIL_MAX_LENGTH, checkEmail, checkName, checkPassword } from '../rules.js';

/** The languages an account can choose: its e-mails are written in it (Korean by default). */
export const ACCOUNT_LANGUAGES = ['ko', 'en'] as const;
export type AccountLanguage = (typeof ACCOUNT_LANGUAGES)[number];

/** `PUT /api/user/language`: the signed-in account's language. */
export const accountLanguageRequestSchema = z.object({ language: z.enum(ACCOUNT_LANGUAGES, { error: 'invalid_request_message' }) });

/** A user as the API shows it (never with a password hash or secret). */
export const userSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  description: z.string(),
  role: z.enum(ROLES),
  roleLevel: z.number().int().min(1).max(3),
  status: z.enum(USER_STATUSES),
  approved: z.boolean(),
  provider: z.string().default(LOCAL_PROVIDER),
  profileImage: z.string().nullable(),
  lastLogin: z.string().nullable(),
  createdAt: z.string(),
  /** The account still has the system's initial password and must choose its own first. */
  mustChangePassword: z.boolean().default(false),
  /** The account's language, for its e-mails (absent: ko); the server always sends it. */
  language: z.enum(ACCOUNT_LANGUAGES).optional(),
});
export type User = z.infer<typeof userSchema>;

/** Signed-in session as the web keeps it: the user and the access token. */
export const authResponseSchema = z.object({ user: userSchema, token: z.string() });
export type AuthResponse = z.infer<typeof authResponseSchema>;

/** A zod string checked by one of the spec's rules; the issue message is the rule's key. */
function ruled(check: (v: string) => string | null) {
  return z.string({ error: () => check('') ?? 'invalid_request_message' }).superRefine((value, ctx) => {
    const key = check(value);
    if (key) ctx.addIssue({ code: 'custom', message: key });
  });
}

export const emailField = ruled(checkEmail).transform((v) => v.trim().toLowerCase());
export const nameField = ruled(checkName).transform((v) => v.trim());
export const passwordField = ruled(checkPassword);

export const setupStatusSchema = z.object({ required: z.boolean() });
export type SetupStatus = z.infer<typeof setupStatusSchema>;

export const setupRequestSchema = z.object({
  token: z.string({ error: 'setup_token_invalid' }).min(1, { error: 'setup_token_invalid' }).max(200),
  name: nameField,
  email: emailField,
  password: passwordField,
});
export type SetupRequest = z.input<typeof setupRequestSchema>;

export const loginRequestSchema = z.object({
  email: z.string({ error: 'rules_email_required' }).min(1, { error: 'rules_email_required' }).max(EMAIL_MAX_LENGTH),
  password: z
    .string({ error: 'rules_password' })
    .min(1, { error: 'rules_password' })
    .max(PASSWORD_MAX_LENGTH * 4),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;
