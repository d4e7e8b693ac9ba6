import { z } from 'zod';

/** Every error the API answers: the HTTP status and a message key. */
export const errorResponseSchema = z.object({
  statusCode: z.number().int(),
  message: z.string(),
});

export const okResponseSchema = z.object({ success: z.boolean() });
