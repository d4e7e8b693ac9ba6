import { z } from 'zod';

/** What readiness checks: each answers `ok`, `failed`, or `not_used` (Redis when none is configured). */
export const READINESS_CHECKS = ['database', 'migrations', 'blobStore', 'redis'] as const;
export type ReadinessCheck = (typeof READINESS_CHECKS)[number];
export const checkStateSchema = z.enum(['ok', 'failed', 'not_used']);

/** `GET /api/health/live`: the process answers. */
export const livenessResponseSchema = z.object({ status: z.literal('ok') });

/** `GET /api/health/ready`: 200 when every check is ok (or not used), else 503 naming the one(s) that failed. */
export const readinessResponseSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.object({ database: checkStateSchema, migrations: checkStateSchema, blobStore: checkStateSchema, redis: checkStateSchema }),
  failed: z.array(z.enum(READINESS_CHECKS)),
});
export type ReadinessResponse = z.infer<typeof readinessResponseSchema>;
