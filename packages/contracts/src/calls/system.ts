import { z } from 'zod';
import { POLICY_LEVELS } from '../enums.js';

export const healthResponseSchema = z.object({ status: z.enum(['ok', 'unavailable']) });

/** One route's policy, as `GET /api/policy` lists it and the server enforces it. */
export const policySchema = z.object({
  category: z.string(),
  name: z.string(),
  description: z.string(),
  method: z.string(),
  uri: z.string(),
  level: z.union(POLICY_LEVELS.map((l) => z.literal(l)) as [z.ZodLiteral<0>, z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<3>]),
});
export type Policy = z.infer<typeof policySchema>;
export const policyListSchema = z.array(policySchema);
