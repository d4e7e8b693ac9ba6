import { z } from 'zod';
import { FILE_CATEGORIES } from '../file-types.js';
import { SEARCH_MAX_LENGTH, SEARCH_MIN_LENGTH } from '../limits.js';
import { normalizeName } from '../paths.js';
import { pathField } from './files.js';

/** Most matches one keyword call answers (the results page); the top-bar preview asks for fewer. */
export const SEARCH_RESULTS_MAX = 200;
export const SEARCH_PREVIEW_LIMIT = 20;

/**
 * A keyword of 2 to 50 characters (after trimming), in NFC as names are stored, so Korean
 * typed as jamo finds the names typed as syllables; the issue message is `search_keyword_length`.
 */
export const searchKeywordField = z
  .string({ error: 'search_keyword_length' })
  .transform((v) => normalizeName(v).trim())
  .refine((v) => [...v].length >= SEARCH_MIN_LENGTH && [...v].length <= SEARCH_MAX_LENGTH, { message: 'search_keyword_length' });

/**
 * A bound of the date filter (on the file's modification time): an instant with its offset
 * (`2026-03-05T15:00:00.000Z`, `2026-03-06T00:00+09:00`; the web sends the bounds of the
 * user's local days this way), or a bare day `YYYY-MM-DD`, read in the server's time zone.
 */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)) && new Date(Date.parse(v)).toISOString().startsWith(v);
const dateField = z.string().refine((v) => (isDay(v) || INSTANT.test(v)) && !Number.isNaN(Date.parse(v)), { message: 'search_filter_invalid' });

/**
 * `GET /api/search/keyword` (and the spec's `GET /llm/search/keyword`). `userId` is accepted
 * and ignored: the caller is the token's user.
 */
export const searchQuerySchema = z.object({
  keyword: searchKeywordField,
  userId: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(SEARCH_RESULTS_MAX).default(SEARCH_PREVIEW_LIMIT),
  /** Only files of this category (folders are left out), or only folders. */
  type: z.enum([...FILE_CATEGORIES, 'folder'], { error: 'search_filter_invalid' }).optional(),
  /** Only what lies inside this folder. */
  folder: pathField.optional(),
  /** Modified at or after / at or before (an instant, or a whole day in the server's time zone). */
  from: dateField.optional(),
  to: dateField.optional(),
});
export type SearchQuery = z.input<typeof searchQuerySchema>;

/** Where the keyword was found: in the name (ranked first) or in the text of the file. */
export const SEARCH_MATCH_KINDS = ['name', 'content'] as const;
export type SearchMatchKind = (typeof SEARCH_MATCH_KINDS)[number];

/** One match: the node, its current path, and the text around the match. */
export const searchResultSchema = z.object({
  _id: z.string(),
  name: z.string(),
  path: z.string(),
  folder: z.boolean(),
  size: z.number(),
  mtime: z.string(),
  extension: z.string(),
  match: z.enum(SEARCH_MATCH_KINDS),
  /** The name for a name match; a short passage of the file around the keyword for a content match. */
  snippet: z.string(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

/** The spec's "list of matches", best first. */
export const searchResponseSchema = z.array(searchResultSchema);
