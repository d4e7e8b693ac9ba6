import { z } from 'zod';
import { currentPasswordField } from './sign-in.js';

/** Longest name of an app password (after trimming). */
export const APP_PASSWORD_NAME_MAX = 64;
/** App passwords one account may hold at once. */
export const APP_PASSWORDS_PER_ACCOUNT = 50;

/**
 * `POST /api/auth/app-passwords`: a name the account recognises the client by ("노트북 rclone")
 * and the account's current password (an app password opens the files without a second factor,
 * so a stolen access token alone must not be able to make one). Names are unique per account.
 */
export const appPasswordCreateSchema = z.object({
  name: z
    .string({ error: 'app_password_name_length' })
    .trim()
    .min(1, { error: 'app_password_name_length' })
    .max(APP_PASSWORD_NAME_MAX, { error: 'app_password_name_length' }),
  currentPassword: currentPasswordField,
});
export type AppPasswordCreate = z.input<typeof appPasswordCreateSchema>;

/** The answer to a creation: the only time the password itself is ever shown. */
export const appPasswordCreatedSchema = z.object({ _id: z.string(), name: z.string(), password: z.string() });
export type AppPasswordCreated = z.infer<typeof appPasswordCreatedSchema>;

/** One app password as listed: never the password, only when and from where it was last used. */
export const appPasswordSchema = z.object({
  _id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
});
export type AppPassword = z.infer<typeof appPasswordSchema>;
export const appPasswordListSchema = z.array(appPasswordSchema);

/** `DELETE /api/auth/app-passwords/{id}`. */
export const appPasswordParamsSchema = z.object({ id: z.string().min(1).max(64) });
