import { isValidFileName, normalizeName, pathFits, utf8Length } from '@bogwan/contracts';
import { DavError } from './dav-errors.js';

/** Where the WebDAV tree is served. */
export const DAV_PREFIX = '/dav';

/** A request's target: the tree path (`/` for the list of root folders) and whether the URL ended in `/`. */
export interface DavTarget {
  path: string;
  trailingSlash: boolean;
}

/**
 * The tree path a `/dav/…` URL path stands for: each segment percent-decoded as UTF-8,
 * then NFC (as the web stores names). Refused with 400: a segment that decodes to `.`,
 * `..`, or holds `/` (`%2f`), `\`, NUL or a control character, an empty segment inside
 * the path, bad percent-encoding, or a path past 4,096 bytes. The query is ignored.
 */
export function treePathOf(rawUrl: string): DavTarget {
  const pathPart = rawUrl.split('?')[0]!.split('#')[0]!;
  if (pathPart !== DAV_PREFIX && !pathPart.startsWith(`${DAV_PREFIX}/`)) throw new DavError(404);
  const rest = pathPart.slice(DAV_PREFIX.length);
  const trailingSlash = rest.endsWith('/');
  const rawSegments = rest.split('/').slice(1);
  if (trailingSlash) rawSegments.pop();
  const segments = rawSegments.map(decodeSegment);
  const path = `/${segments.join('/')}`;
  if (!pathFits(utf8Length(path))) throw new DavError(400);
  return { path, trailingSlash };
}

function decodeSegment(raw: string): string {
  if (raw === '') throw new DavError(400);
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw new DavError(400);
  }
  const name = normalizeName(decoded);
  if (!isValidFileName(name)) throw new DavError(400);
  return name;
}

/** The href of a tree path, percent-encoded per segment; folders end in `/`. */
export function hrefOf(path: string, folder: boolean): string {
  const encoded = path === '/' ? '' : path.split('/').slice(1).map(encodeSegment).join('/');
  const href = `${DAV_PREFIX}/${encoded}`;
  return folder && !href.endsWith('/') ? `${href}/` : href;
}

/** The href of a folder's member from the folder's own href (which ends in `/`): the folder's part is encoded once per listing. */
export function memberHref(folderHref: string, name: string, folder: boolean): string {
  const href = folderHref + encodeSegment(name);
  return folder ? `${href}/` : href;
}

function encodeSegment(segment: string): string {
  // Unreserved characters only (file-000001.txt): nothing to encode.
  if (UNRESERVED.test(segment)) return segment;
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const UNRESERVED = /^[A-Za-z0-9\-_.~]*$/;

/** The folder path and name of an item path (`/a/b` → `/a`, `b`). */
export function splitItem(path: string): { folder: string; name: string } {
  const slash = path.lastIndexOf('/');
  return { folder: slash === 0 ? '/' : path.slice(0, slash), name: path.slice(slash + 1) };
}

/**
 * The tree path a `Destination` header names. It must be an absolute URL on this host
 * (another host → 502, RFC 4918 9.8.5/9.9.4) or an absolute path, under `/dav/`
 * (else 400 — nothing else here is a WebDAV resource), and not the top level.
 */
export function destinationOf(header: string | undefined, host: string | undefined): DavTarget {
  if (!header) throw new DavError(400);
  let pathPart = header;
  if (!header.startsWith('/')) {
    let url: URL;
    try {
      url = new URL(header);
    } catch {
      throw new DavError(400);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DavError(400);
    if (!host || url.host.toLowerCase() !== host.toLowerCase()) throw new DavError(502);
    pathPart = url.pathname;
  }
  if (pathPart !== DAV_PREFIX && !pathPart.startsWith(`${DAV_PREFIX}/`)) throw new DavError(400);
  return treePathOf(pathPart);
}
