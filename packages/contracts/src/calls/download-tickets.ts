import { z } from 'zod';
import { pathField } from './files.js';

/** Seconds a download ticket waits for the browser's first request. */
export const DOWNLOAD_TICKET_FIRST_USE_SECONDS = 60;
/**
 * Seconds after issue during which a file's download may be resumed with `Range` under the
 * same ticket (the browser's download manager resumes an interrupted download at the same address).
 */
export const DOWNLOAD_TICKET_RESUME_SECONDS = 2 * 60 * 60;

/**
 * `POST /api/file/download/ticket`: an address the browser's download manager fetches by
 * itself for one file (`path`), a folder as a zip (`path`), a selection as one zip (`paths`),
 * or one version of a file (`path` and `versionId`). Checked as the download is.
 */
export const downloadTicketRequestSchema = z
  .object({
    path: pathField.optional(),
    paths: z.array(pathField).min(1).max(1000).optional(),
    /** A version of the file at `path` (its `_id` in the version list). */
    versionId: z.string().min(1).max(64).optional(),
  })
  .refine((q) => (q.path === undefined) !== (q.paths === undefined), { message: 'invalid_path' })
  .refine((q) => q.versionId === undefined || q.path !== undefined, { message: 'invalid_path' });
export type DownloadTicketRequest = z.infer<typeof downloadTicketRequestSchema>;

/**
 * The address to hand to the browser (same origin, under /api): the download's own address
 * with a `ticket` bound to the account, its session, that exact address and (for a file) its
 * content. The first request must come within DOWNLOAD_TICKET_FIRST_USE_SECONDS and spends
 * it; later `Range` requests of a file or version resume under it until
 * DOWNLOAD_TICKET_RESUME_SECONDS after issue.
 */
export const downloadTicketSchema = z.object({ url: z.string() });
export type DownloadTicket = z.infer<typeof downloadTicketSchema>;
