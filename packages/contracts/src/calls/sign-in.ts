import { z } from 'zod';
import { OTP_LENGTH, PASSWORD_MAX_LENGTH } from '../limits.js';
import { EMAIL_MAX_LENGTH } from '../rules.js';
import { authResponseSchema, passwordField } from './auth.js';

/** Second factors a user can turn on for password sign-in. */
export const MFA_METHODS = ['none', 'email', 'otp'] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];

const emailInput = z
  .string({ error: 'rules_email_required' })
  .min(1, { error: 'rules_email_required' })
  .max(EMAIL_MAX_LENGTH)
  .transform((v) => v.trim().toLowerCase());

/**
 * The account's current password, asked again before a change that would hand the account
 * to whoever holds an access token (second factor off or replaced, a new authenticator app,
 * a fingerprint). Missing: 400 `reauth_password_required`; wrong: 401 `not_matched_origin_password`.
 */
export const currentPasswordField = z
  .string({ error: 'reauth_password_required' })
  .min(1, { error: 'reauth_password_required' })
  .max(PASSWORD_MAX_LENGTH * 4);

/** `POST /api/auth/login`: signed in, or a second factor is needed (an email code was sent for `email`). */
export const mfaChallengeSchema = z.object({ mfa: z.enum(['email', 'otp']), email: z.string() });
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;
export const loginResponseSchema = z.union([authResponseSchema, mfaChallengeSchema]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** `POST /api/auth/verify/otp`: `login: true` finishes a sign-in, `false` confirms an authenticator app registration. */
export const verifyOtpRequestSchema = z.object({
  email: emailInput,
  otp: z.string({ error: 'login_failure_otp' }).regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), { error: 'login_failure_otp' }),
  login: z.boolean().default(true),
});
export type VerifyOtpRequest = z.input<typeof verifyOtpRequestSchema>;
export const verifyOtpResponseSchema = z.object({
  success: z.boolean(),
  user: authResponseSchema.shape.user.optional(),
  token: z.string().optional(),
  message: z.string().optional(),
});
export type VerifyOtpResponse = z.infer<typeof verifyOtpResponseSchema>;

/** `POST /api/auth/login/otp` (signed in): a new authenticator secret as a QR code to scan. */
export const otpQrRequestSchema = z.object({ email: emailInput, currentPassword: currentPasswordField });
export type OtpQrRequest = z.input<typeof otpQrRequestSchema>;
export const otpQrResponseSchema = z.object({ qrCode: z.string(), secret: z.string() });
export type OtpQrResponse = z.infer<typeof otpQrResponseSchema>;

/** `POST /api/auth/refresh` and `POST /api/auth/logout` carry the user's id; the cookie is what counts. */
export const sessionUserRequestSchema = z.object({ _id: z.string().min(1).max(64) });
export const refreshResponseSchema = z.object({ token: z.string() });

/** `GET /api/auth/factors` and `PUT /api/auth/factors`: the signed-in user's second factors. */
export const factorsSchema = z.object({
  mfa: z.enum(MFA_METHODS),
  otpRegistered: z.boolean(),
  fingerprints: z.number().int(),
});
export type Factors = z.infer<typeof factorsSchema>;
export const updateFactorsRequestSchema = z.object({ mfa: z.enum(MFA_METHODS), currentPassword: currentPasswordField });
export type UpdateFactorsRequest = z.input<typeof updateFactorsRequestSchema>;

/** `PUT /api/user/password`. */
export const changePasswordRequestSchema = z.object({
  _id: z.string().min(1).max(64),
  password: z
    .string({ error: 'rules_password' })
    .min(1, { error: 'rules_password' })
    .max(PASSWORD_MAX_LENGTH * 4),
  newPassword: passwordField,
});
export type ChangePasswordRequest = z.input<typeof changePasswordRequestSchema>;
/** The session goes on with a fresh access token; the account's other sessions end. */
export const changePasswordResponseSchema = z.object({ success: z.boolean(), message: z.string(), token: z.string() });
export type ChangePasswordResponse = z.infer<typeof changePasswordResponseSchema>;

/**
 * WebAuthn ("fingerprint"). Options and responses are the JSON forms of the browser's
 * PublicKeyCredential objects, passed through unchanged to the verifier.
 */
export const webauthnOptionsSchema = z.record(z.string(), z.unknown());
export const webauthnRegisterRequestSchema = z.object({
  _id: z.string().min(1).max(64),
  credentialId: z.string().min(1).max(1024),
  response: z.record(z.string(), z.unknown()),
  currentPassword: currentPasswordField,
});
export type WebauthnRegisterRequest = z.input<typeof webauthnRegisterRequestSchema>;
export const webauthnLoginOptionsRequestSchema = z.object({ email: emailInput });
/** Answer to the options call: either assertion options, or `register: true` when the account has no fingerprint yet. */
export const webauthnLoginOptionsResponseSchema = z.object({
  register: z.boolean(),
  options: webauthnOptionsSchema,
});
export const webauthnLoginVerifyRequestSchema = z.object({
  email: emailInput,
  response: z.record(z.string(), z.unknown()),
  /** For the first fingerprint sign-in: the password proves the account before a credential is registered. */
  password: z
    .string()
    .max(PASSWORD_MAX_LENGTH * 4)
    .optional(),
});
export const webauthnLoginVerifyResponseSchema = authResponseSchema;
