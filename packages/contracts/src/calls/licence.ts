import { z } from 'zod';

/** `GET /api/system/license/check`. */
export const licenceCheckSchema = z.object({
  isVerifyLicenseRequired: z.boolean(),
  /** This installation's id, which a key must name; public so an operator can ask for a key while locked out. */
  serverId: z.string(),
});
export type LicenceCheck = z.infer<typeof licenceCheckSchema>;

/** The licence as Settings → System → Licence shows it. Dates are ISO-8601. */
export const licenceSchema = z.object({
  org: z.string(),
  sen: z.string(),
  serverId: z.string(),
  type: z.string(),
  user: z.number().int(),
  purchase: z.string(),
  maintenance: z.string(),
  /** True while the installation runs on its built-in trial. */
  trial: z.boolean(),
  /** When the product stops working without a new key (trial end, or the day after maintenance expiry), or null. */
  expiresAt: z.string().nullable(),
  /** Accounts counted against `user`. */
  seatsUsed: z.number().int(),
});
export type Licence = z.infer<typeof licenceSchema>;

/** `PUT /api/system/license`. */
export const licenceUpdateRequestSchema = z.object({
  key: z.string({ error: 'invalid_license' }).trim().min(1, { error: 'invalid_license' }).max(8192, { error: 'invalid_license' }),
});
export const licenceUpdateResponseSchema = z.object({ success: z.boolean(), message: z.string() });
export type LicenceUpdateRequest = z.infer<typeof licenceUpdateRequestSchema>;
export type LicenceUpdateResponse = z.infer<typeof licenceUpdateResponseSchema>;
