import { fileCategory } from '@bogwan/contracts';

export type PreviewKind = 'image' | 'video' | 'pdf' | 'hwp' | 'xlsx' | 'text';

/** Bytes of a video fetched whole (secure folders, where it cannot be streamed in pieces). */
export const VIDEO_FETCH_LIMIT = 512 * 1024 * 1024;

/** Size caps per kind: above them the overlay offers the download instead. */
export const PREVIEW_LIMITS: Record<PreviewKind, number> = {
  image: 50 * 1024 * 1024,
  // Streamed with ranges; only a video that must be fetched whole is capped (VIDEO_FETCH_LIMIT).
  video: Number.POSITIVE_INFINITY,
  pdf: 100 * 1024 * 1024,
  hwp: 30 * 1024 * 1024,
  xlsx: 20 * 1024 * 1024,
  text: Number.POSITIVE_INFINITY,
};

/** How a file is previewed; anything not known is shown as text (its first megabyte). */
export function previewKind(name: string): PreviewKind {
  const lower = name.toLowerCase();
  switch (fileCategory(lower)) {
    case 'image':
      return 'image';
    case 'video':
      return 'video';
    case 'pdf':
      return 'pdf';
    case 'hwp':
      return lower.endsWith('.hwp') ? 'hwp' : 'text';
    case 'excel':
      return lower.endsWith('.xlsx') ? 'xlsx' : 'text';
    default:
      return 'text';
  }
}
