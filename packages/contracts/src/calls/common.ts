import { z } from 'zod';

/** Every error the API answers: the HTTP status and a message key. */
export const errorResponseSchema = z.object({
  statusCode: z.number().int(),
  message: z.string(),
});

export const okResponseSchema = z.object({ success: z.boolean() });

/** An outcome with a message key to show (e.g. `register_fingerprint_complete_message`). */
export const messageResponseSchema = z.object({ success: z.boolean(), message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;
