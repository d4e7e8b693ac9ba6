// XML of WebDAV locks (RFC 4918 14.1-14.13): reading `lockinfo`, writing `activelock`,
// `supportedlock` and the `<D:error>` conditions of locks. Uses the DAV core's XML reader.
import { DAV_NS, type XmlElement, type XmlNode, childOf, elementsOf, escapeXml } from '../xml.js';
import type { DavLock, LockScope } from './dav-locks.js';

/** Longest `<D:owner>` kept with a lock (serialised); a longer one is refused (400). */
export const MAX_OWNER_XML = 4096;

/** What a LOCK body asks for. */
export interface LockInfo {
  scope: LockScope;
  /** `<D:owner>…</D:owner>` as XML, or '' when the body names no owner. */
  ownerXml: string;
}

/** Why a `lockinfo` body cannot be used (answered 400). */
export class BadLockInfo extends Error {
  constructor(reason: string) {
    super(`bad lockinfo: ${reason}`);
    this.name = 'BadLockInfo';
  }
}

/** Reads `<D:lockinfo>`: one lockscope (exclusive|shared), locktype write, an optional owner. */
export function readLockInfo(root: XmlElement): LockInfo {
  if (root.ns !== DAV_NS || root.local !== 'lockinfo') throw new BadLockInfo('not a lockinfo');
  const scopeElement = childOf(root, DAV_NS, 'lockscope');
  const scopes = scopeElement ? elementsOf(scopeElement).filter((e) => e.ns === DAV_NS) : [];
  const scope = scopes.length === 1 ? scopes[0]?.local : undefined;
  if (scope !== 'exclusive' && scope !== 'shared') throw new BadLockInfo('lockscope');
  const typeElement = childOf(root, DAV_NS, 'locktype');
  const types = typeElement ? elementsOf(typeElement) : [];
  if (types.length !== 1 || types[0]?.ns !== DAV_NS || types[0].local !== 'write') throw new BadLockInfo('locktype');
  const owner = childOf(root, DAV_NS, 'owner');
  const ownerXml = owner ? `<D:owner>${owner.children.map(ownerContentXml).join('')}</D:owner>` : '';
  if (ownerXml.length > MAX_OWNER_XML) throw new BadLockInfo('owner too long');
  return { scope, ownerXml };
}

/**
 * Writes the owner's content back as XML: DAV: elements under the `D:` prefix of the
 * enclosing document (clients compare `<D:href>` owners as they sent them), others with
 * their namespace declared on themselves.
 */
function ownerContentXml(node: XmlNode): string {
  if (typeof node === 'string') return escapeXml(node);
  const qname = node.ns === DAV_NS ? `D:${node.local}` : node.ns === '' ? node.local : `o:${node.local}`;
  const declaration = node.ns === DAV_NS ? '' : node.ns === '' ? ' xmlns=""' : ` xmlns:o="${escapeXml(node.ns)}"`;
  const attributes = Object.entries(node.attributes)
    .filter(([name]) => !name.startsWith('{'))
    .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
    .join('');
  const inner = node.children.map(ownerContentXml).join('');
  return inner === '' ? `<${qname}${declaration}${attributes}/>` : `<${qname}${declaration}${attributes}>${inner}</${qname}>`;
}

const href = (value: string) => `<D:href>${escapeXml(value)}</D:href>`;

/** One `<D:activelock>`; `hrefOf` gives the lock root's URL, `now` counts the seconds left. */
export function activeLockXml(lock: DavLock, hrefOf: (path: string) => string, now: number): string {
  const left = Math.max(0, Math.ceil((lock.expiresAt - now) / 1000));
  return (
    '<D:activelock>' +
    '<D:locktype><D:write/></D:locktype>' +
    `<D:lockscope><D:${lock.scope}/></D:lockscope>` +
    `<D:depth>${lock.depth}</D:depth>` +
    lock.ownerXml +
    `<D:timeout>Second-${left}</D:timeout>` +
    `<D:locktoken>${href(lock.token)}</D:locktoken>` +
    `<D:lockroot>${href(hrefOf(lock.path))}</D:lockroot>` +
    '</D:activelock>'
  );
}

/** `<D:lockdiscovery>` of the given locks, namespace declared on itself. */
export function lockDiscoveryXml(locks: DavLock[], hrefOf: (path: string) => string, now: number): string {
  return `<D:lockdiscovery xmlns:D="DAV:">${locks.map((lock) => activeLockXml(lock, hrefOf, now)).join('')}</D:lockdiscovery>`;
}

/** `<D:supportedlock>`: exclusive and shared write locks. */
export function supportedLockXml(): string {
  const entry = (scope: LockScope) => `<D:lockentry><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>`;
  return `<D:supportedlock xmlns:D="DAV:">${entry('exclusive')}${entry('shared')}</D:supportedlock>`;
}

/** The response body of LOCK: `<D:prop><D:lockdiscovery>` with the lock taken or refreshed. */
export function lockResponseXml(locks: DavLock[], hrefOf: (path: string) => string, now: number): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<D:prop xmlns:D="DAV:">${lockDiscoveryXml(locks, hrefOf, now)}</D:prop>`;
}

/** An RFC 4918 `<D:error>` document with one precondition naming lock roots (or none). */
export function conditionXml(condition: 'lock-token-submitted' | 'no-conflicting-lock' | 'lock-token-matches-request-uri', hrefs: string[] = []): string {
  const inner = [...new Set(hrefs)].map(href).join('');
  const element = inner === '' ? `<D:${condition}/>` : `<D:${condition}>${inner}</D:${condition}>`;
  return `<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:">${element}</D:error>`;
}
