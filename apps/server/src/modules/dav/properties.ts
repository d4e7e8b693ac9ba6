import { Readable } from 'node:stream';
import { extensionOf } from '@bogwan/contracts';
import type { NodeRow } from '../files/ports.js';
import type { NodesRepo } from '../files/nodes.repo.js';
import { previewType } from '../transfer/http-bytes.js';
import { DavError } from './dav-errors.js';
import { httpDateOf, isoDateOf } from './dav-dates.js';
import { hrefOf } from './dav-paths.js';
import type { DeadPropertiesRepo, DeadProperty } from './dead-properties.repo.js';
import type { DavLocks } from './ports.js';
import { DAV_NS, childOf, elementXml, elementsOf, escapeXml, type XmlElement } from './xml.js';

/** A property name: namespace and local name. */
export interface PropName {
  ns: string;
  name: string;
}

/** What a PROPFIND asks: every property, only the names, or the listed ones. */
export type PropRequest = { kind: 'allprop' } | { kind: 'propname' } | { kind: 'prop'; props: PropName[] };

/** What a multistatus answer reads of a node (a listing selects these columns only). */
export type DavNode = Pick<NodeRow, 'id' | 'root_id' | 'name' | 'folder' | 'size' | 'mtime' | 'content_hash' | 'created_at'>;

/** A resource in a multistatus answer: a tree path and its node (null for the top level `/dav/`). */
export interface DavEntry {
  path: string;
  node: DavNode | null;
  /** Its href when already known (a listing's members: `memberHref`); else made from `path`. */
  href?: string;
}

/** An answer with more responses than this is streamed in pieces instead of built whole (see `multistatus`). */
const STREAM_FROM = 1000;
/** Responses per piece of a streamed answer. */
const RESPONSES_PER_PIECE = 250;

/** Live properties this server computes (RFC 4918 15, RFC 4331); PROPPATCH cannot change them. */
export const LIVE_PROPERTIES = [
  'creationdate',
  'displayname',
  'getcontentlength',
  'getcontenttype',
  'getetag',
  'getlastmodified',
  'resourcetype',
  'lockdiscovery',
  'supportedlock',
  'quota-used-bytes',
  'quota-available-bytes',
] as const;
type LiveProperty = (typeof LIVE_PROPERTIES)[number];
/** A resource without locks (what the lock service answers then). */
const EMPTY_LOCK_DISCOVERY = '<D:lockdiscovery/>';
/** RFC 4331: the quota properties are not part of `allprop`. */
const NOT_IN_ALLPROP = new Set<string>(['quota-used-bytes', 'quota-available-bytes']);
/** The live properties `allprop` answers, in order. */
export const ALLPROP_LIVE: PropName[] = LIVE_PROPERTIES.filter((n) => !NOT_IN_ALLPROP.has(n)).map((name) => ({ ns: DAV_NS, name }));
const LIVE_NAMES = new Set<string>(LIVE_PROPERTIES);

export function isLiveProperty(prop: PropName): boolean {
  return prop.ns === DAV_NS && LIVE_NAMES.has(prop.name);
}

/** A propstat of props already written as XML. */
function propstat(props: string, status: string): string {
  return `<D:propstat><D:prop>${props}</D:prop><D:status>HTTP/1.1 ${status}</D:status></D:propstat>`;
}

/** The PROPFIND body: none or `allprop` → every property; `propname`; or `prop` with names. Else 400. */
export function parsePropfind(body: XmlElement | undefined): PropRequest {
  if (!body) return { kind: 'allprop' };
  if (body.ns !== DAV_NS || body.local !== 'propfind') throw new DavError(400);
  if (childOf(body, DAV_NS, 'propname')) return { kind: 'propname' };
  const prop = childOf(body, DAV_NS, 'prop');
  if (prop) return { kind: 'prop', props: elementsOf(prop).map((e) => ({ ns: e.ns, name: e.local })) };
  if (childOf(body, DAV_NS, 'allprop')) return { kind: 'allprop' };
  throw new DavError(400);
}

/** The Content-Type a file is described and served with over WebDAV (never active content, see http-bytes.ts). */
export function davContentType(name: string): string {
  const type = previewType(name);
  if (type.startsWith('text/plain') && extensionOf(name) !== 'txt') return 'application/octet-stream';
  return type;
}

/** A file's ETag: the same the web download sends (http-bytes/download.service). */
export function etagOf(node: Pick<NodeRow, 'folder' | 'content_hash'>): string | undefined {
  return node.folder === 1 || !node.content_hash ? undefined : `"${node.content_hash}"`;
}

/** `getetag`'s content: etagOf's value written escaped (its quotes as `&quot;`), or undefined. */
function etagXml(node: Pick<NodeRow, 'folder' | 'content_hash'>): string | undefined {
  return etagOf(node) === undefined ? undefined : `&quot;${escapeXml(node.content_hash!)}&quot;`;
}

/**
 * Builds PROPFIND answers: the live properties from the node rows, and in one query each for
 * the whole listing, only when asked for: the quota from the entries' roots, the dead
 * properties, the lock discovery (the lock service's batch read).
 */
export class DavProperties {
  constructor(
    private readonly nodes: NodesRepo,
    private readonly dead: DeadPropertiesRepo,
    private readonly locks: DavLocks,
  ) {}

  /** The supportedlock XML (the same for every resource), made once. */
  private supported: string | undefined;

  /**
   * The `207 Multi-Status` body for the entries. `listing`: the entries are this folder and
   * its live members (depth 1), so their dead properties come in one statement. A large
   * answer (a folder of 10,000 files is ~9 MB) is a stream of pieces of a few hundred
   * responses, each made when the socket takes the last: the whole text never lives in
   * memory, and other requests are served between the pieces.
   */
  async multistatus(entries: DavEntry[], request: PropRequest, listing?: NodeRow): Promise<string | Readable> {
    const asks = (name: string) => request.kind !== 'prop' || request.props.some((p) => p.ns === DAV_NS && p.name === name);
    const ids = entries.flatMap((entry) => (entry.node ? [entry.node.id] : []));
    const wantsDead = request.kind !== 'prop' || request.props.some((p) => !isLiveProperty(p));
    const dead =
      !wantsDead || ids.length === 0 ? new Map<string, DeadProperty[]>() : listing ? await this.dead.ofListing(listing.id) : await this.dead.ofNodes(ids);
    const wantsRoots = request.kind === 'propname' || asks('quota-used-bytes') || asks('quota-available-bytes');
    const rootIds = wantsRoots ? [...new Set(entries.flatMap((e) => (e.node ? [e.node.root_id] : [])))] : [];
    const roots = new Map((rootIds.length > 0 ? await this.nodes.findByIds(rootIds) : []).map((r) => [r.id, r]));
    // Values only for allprop and a prop naming it (propname needs the name alone).
    const located = entries.flatMap((e) => (e.node ? [e.path] : []));
    const wantsLocks = request.kind !== 'propname' && asks('lockdiscovery') && located.length > 0;
    const discovery = wantsLocks ? await this.locks.lockDiscoveryAll(located, (path) => hrefOf(path, false)) : new Map<string, string>();
    const render = (entry: DavEntry) => {
      const root = entry.node ? roots.get(entry.node.root_id) : undefined;
      return this.response(entry, request, entry.node ? (dead.get(entry.node.id) ?? []) : [], root, discovery);
    };
    if (entries.length <= STREAM_FROM) return [...multistatusPieces(entries, render, entries.length)].join('');
    return Readable.from(multistatusPieces(entries, render, RESPONSES_PER_PIECE), { objectMode: false });
  }

  private response(entry: DavEntry, request: PropRequest, dead: DeadProperty[], root: NodeRow | undefined, discovery: Map<string, string>): string {
    // Written by concatenation, one string per response: a 10,000-entry listing made an array
    // per property list before (garbage collection took as long as the writing).
    const folder = !entry.node || entry.node.folder === 1;
    let found = '';
    let missing = '';
    if (request.kind === 'propname') {
      for (const name of LIVE_PROPERTIES) if (this.live(name, entry, root, discovery) !== undefined) found += elementXml(DAV_NS, name, '');
      for (const prop of dead) found += elementXml(prop.ns, prop.name, '');
    } else if (request.kind === 'allprop') {
      found = this.allpropLive(entry, discovery);
      for (const prop of dead) found += elementXml(prop.ns, prop.name, prop.value);
    } else {
      for (const prop of request.props) {
        const value = isLiveProperty(prop)
          ? this.live(prop.name as LiveProperty, entry, root, discovery)
          : dead.find((d) => d.ns === prop.ns && d.name === prop.name)?.value;
        // allprop names only the properties the resource has (RFC 4918 9.1): a folder's
        // getcontentlength or getetag is left out, not answered 404 as a `prop` request's is.
        if (value === undefined) {
          if (request.kind === 'prop') missing += elementXml(prop.ns, prop.name, '');
        } else if (prop.ns === DAV_NS && (prop.name === 'lockdiscovery' || prop.name === 'supportedlock')) found += value;
        else found += elementXml(prop.ns, prop.name, value);
      }
    }
    // Every element written is non-empty: '' means none.
    // An href is percent-encoded down to unreserved characters (dav-paths.ts): nothing in it to escape.
    let response = `<D:response><D:href>${entry.href ?? hrefOf(entry.path, folder)}</D:href>`;
    if (found !== '' || missing === '') response += propstat(found, '200 OK');
    if (missing !== '') response += propstat(missing, '404 Not Found');
    return `${response}</D:response>`;
  }

  /**
   * The live properties `allprop` answers (ALLPROP_LIVE, in order), written at once: what
   * the loop over `live` writes for them, without a lookup, a switch and an element made per
   * property (a 10,000-entry listing writes 90,000 of them). A unit test compares the two.
   */
  private allpropLive(entry: DavEntry, discovery: Map<string, string>): string {
    const node = entry.node;
    // The top level `/dav/` is a collection and nothing else.
    if (!node) return '<D:resourcetype><D:collection/></D:resourcetype>';
    let xml = `<D:creationdate>${isoDateOf(node.created_at)}</D:creationdate><D:displayname>${escapeXml(node.name)}</D:displayname>`;
    if (node.folder !== 1) {
      xml += `<D:getcontentlength>${node.size}</D:getcontentlength><D:getcontenttype>${escapeXml(davContentType(node.name))}</D:getcontenttype>`;
      const etag = etagXml(node);
      if (etag !== undefined) xml += `<D:getetag>${etag}</D:getetag>`;
      xml += `<D:getlastmodified>${httpDateOf(node.mtime)}</D:getlastmodified><D:resourcetype/>`;
    } else xml += `<D:getlastmodified>${httpDateOf(node.mtime)}</D:getlastmodified><D:resourcetype><D:collection/></D:resourcetype>`;
    return xml + (discovery.get(entry.path) ?? EMPTY_LOCK_DISCOVERY) + (this.supported ??= this.locks.supportedLock());
  }

  /** A live property's content as XML, or undefined when the resource has none (404 in its propstat). */
  private live(name: LiveProperty, entry: DavEntry, root: NodeRow | undefined, discovery: Map<string, string>): string | undefined {
    const node = entry.node;
    const file = node !== null && node.folder !== 1;
    switch (name) {
      case 'resourcetype':
        return file ? '' : '<D:collection/>';
      case 'displayname':
        return node ? escapeXml(node.name) : undefined;
      case 'creationdate':
        return node ? isoDateOf(node.created_at) : undefined;
      case 'getlastmodified':
        return node ? httpDateOf(node.mtime) : undefined;
      case 'getcontentlength':
        return file ? String(node.size) : undefined;
      case 'getcontenttype':
        return file ? escapeXml(davContentType(node.name)) : undefined;
      case 'getetag':
        return node ? etagXml(node) : undefined;
      case 'quota-used-bytes':
        return !file && root ? String(root.usage_bytes) : undefined;
      case 'quota-available-bytes':
        return !file && root && root.volume_limit != null ? String(Math.max(0, root.volume_limit - root.usage_bytes)) : undefined;
      case 'lockdiscovery':
        // Read for the whole listing beforehand (absent only when the request names it not: propname).
        return node ? (discovery.get(entry.path) ?? EMPTY_LOCK_DISCOVERY) : undefined;
      case 'supportedlock':
        return node ? (this.supported ??= this.locks.supportedLock()) : undefined;
    }
  }
}

/** The multistatus document in pieces of `perPiece` responses (the first with the prolog, the last with the end tag). */
function* multistatusPieces(entries: DavEntry[], render: (entry: DavEntry) => string, perPiece: number): Generator<string> {
  let piece = '<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">';
  for (let i = 0; i < entries.length; i++) {
    piece += `\n${render(entries[i]!)}`;
    if ((i + 1) % perPiece === 0 && i + 1 < entries.length) {
      yield piece;
      piece = '';
    }
  }
  yield `${piece}\n</D:multistatus>\n`;
}
