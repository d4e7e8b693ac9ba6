import { extensionOf } from '@bogwan/contracts';
import type { ByteRange } from '../../storage/blob-store.js';

/**
 * `Content-Disposition` per RFC 6266: an ASCII `filename` for old clients (anything else
 * replaced by `_`) and the exact name as `filename*` in UTF-8 (RFC 5987), so Korean names
 * arrive intact.
 */
export function contentDisposition(type: 'attachment' | 'inline', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * The range a `Range` header asks for: a range, 'unsatisfiable' (answer 416), or null to
 * answer the whole body (no header, another unit, several ranges, or nonsense — all
 * allowed to be ignored by RFC 9110).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** True when an `If-None-Match` header names this ETag (or is `*`). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

const TEXT = 'text/plain; charset=utf-8';
const BYTES = 'application/octet-stream';

/**
 * Types a preview may be served as. Only passive media: images (never SVG), audio,
 * video, PDF; office and HWP documents go as plain bytes for the viewers in the web app.
 * HTML, SVG, XML, scripts and anything unknown are plain text, so nothing uploaded can
 * run in the app's origin.
 */
const PREVIEW_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
  webp: 'image/webp',
  ico: 'image/x-icon',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  heic: 'image/heic',
  avif: 'image/avif',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  ogv: 'video/ogg',
  mov: 'video/quicktime',
  mkv: 'video/x-matroska',
  avi: 'video/x-msvideo',
  wmv: 'video/x-ms-wmv',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/opus',
  flac: 'audio/flac',
  aac: 'audio/aac',
  m4a: 'audio/mp4',
  wma: 'audio/x-ms-wma',
  pdf: 'application/pdf',
  doc: BYTES,
  docx: BYTES,
  xls: BYTES,
  xlsx: BYTES,
  ods: BYTES,
  odt: BYTES,
  ppt: BYTES,
  pptx: BYTES,
  odp: BYTES,
  hwp: BYTES,
  hwpx: BYTES,
  zip: BYTES,
};

/** The Content-Type a file is previewed with; plain text unless the extension is a known passive type. */
export function previewType(name: string): string {
  return PREVIEW_TYPES[extensionOf(name)] ?? TEXT;
}

/** Sandbox for previewed bytes: no script, no plugin, no request except our own images and media. */
export const PREVIEW_CSP = "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'";
