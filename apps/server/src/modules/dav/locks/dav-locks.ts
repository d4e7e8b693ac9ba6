import type { UserRow } from '../../users/users.repo.js';

// The WebDAV lock service (RFC 4918 sections 6, 7, 10.4) that the DAV methods call. The
// types below are the contract with the DAV core (modules/dav): they stay stable.

/** `exclusive` conflicts with every other lock in reach; `shared` only with exclusive ones. */
export type LockScope = 'exclusive' | 'shared';
/** Depth of a lock: the resource alone, or the resource and everything under it. */
export type LockDepth = '0' | 'infinity';

/** An active lock. Locks are on URLs (tree paths), not on nodes: a MOVE does not take them along. */
export interface DavLock {
  /** `urn:uuid:…`, unique, the lock token a client submits in the If header. */
  token: string;
  /** The lock root: absolute NFC tree path, e.g. `/영업부/a.txt`. */
  path: string;
  depth: LockDepth;
  scope: LockScope;
  /** The `<D:owner>` element as the client sent it (serialised, bounded), or '' when none. */
  ownerXml: string;
  /** The account that took the lock; only its requests may use the token. */
  accountId: string;
  timeoutSeconds: number;
  /** ISO time the lock was taken. */
  createdAt: string;
  /** Epoch milliseconds after which the lock is ignored by every check (and later purged). */
  expiresAt: number;
}

/**
 * The request a write check is made for. Every field comes from the authenticated request,
 * never from a payload.
 */
export interface WriteContext {
  /** The account of the request (signed in with an app password). */
  account: { id: string };
  /** The raw `If` header, or undefined when absent. */
  ifHeader: string | undefined;
  /** Tree path of the Request-URI: untagged If lists apply to it. */
  path: string;
  /**
   * The href a client sees for a tree path (percent-encoded, e.g.
   * `/dav/%EC%98%81%EC%97%85%EB%B6%80/a.txt`): used in `<D:href>` of error bodies and lockdiscovery.
   */
  hrefOf: (path: string) => string;
  /**
   * The tree path named by a Resource-Tag of a tagged If list (an absolute URL or an absolute
   * URL path, percent-encoded); null when it does not name a resource under this server's `/dav/`.
   */
  pathOfHref: (href: string) => string | null;
}

/**
 * One resource a method changes. `deep`: the method changes everything under it too
 * (DELETE or MOVE of a folder, COPY/MOVE onto an existing folder), so locks on descendants count.
 * Pass every resource whose content, properties or membership changes, e.g.
 * PUT of an existing file `[{ path, deep: false }]`; PUT of a new file or MKCOL
 * `[{ path, deep: false }, { path: parent, deep: false }]` (a new member changes the parent);
 * DELETE `[{ path, deep: true }, { path: parent, deep: false }]`;
 * MOVE the source and its parent as DELETE plus the destination (deep) and its parent;
 * COPY the destination (deep) and its parent; PROPPATCH `[{ path, deep: false }]`.
 */
export interface WriteTarget {
  path: string;
  deep: boolean;
}

/** The current ETag (as sent in the ETag header, with quotes) of the resource at a tree path, or null when nothing is there. */
export type EtagOf = (path: string) => Promise<string | null>;

/**
 * A refusal of the lock service as the DAV core must send it: `status` (400 malformed If
 * header, 412 If header false, 423 locked, 409/403 for UNLOCK) and `body`, an XML document
 * (`<D:error>` with the RFC 4918 precondition) or '' for none.
 */
export class DavLockRefusal extends Error {
  constructor(
    readonly status: 400 | 403 | 409 | 412 | 423,
    readonly body: string,
  ) {
    super(`dav lock refusal ${status}`);
    this.name = 'DavLockRefusal';
  }
}

/** What the DAV core calls. Implemented by `DavLocksService` (this file). */
export interface DavLocks {
  /**
   * Refuses a write unless the request may make it: the If header (when present) must parse
   * (else 400) and evaluate true (else 412); then every lock covering a target (on it, on an
   * ancestor with depth infinity, or, when `deep`, on a descendant) must have its token in the
   * If header, submitted by the lock's own account (else 423 with `lock-token-submitted`
   * naming the lock roots). Throws `DavLockRefusal`.
   */
  assertCanWrite(context: WriteContext, targets: WriteTarget[], etagOf: EtagOf): Promise<void>;
  /**
   * Evaluates only the If header, for methods that change nothing (GET, HEAD, PROPFIND with If):
   * 400 when malformed, 412 when false. Throws `DavLockRefusal`.
   */
  assertConditions(context: WriteContext, etagOf: EtagOf): Promise<void>;
  /** Removes the locks rooted at `path` or under it (after DELETE, and after MOVE of the source). */
  releaseUnder(path: string): Promise<void>;
  /** `<D:lockdiscovery xmlns:D="DAV:">…</D:lockdiscovery>` of the active locks covering `path`, for PROPFIND. */
  lockDiscovery(path: string, hrefOf: (path: string) => string): Promise<string>;
  /** `<D:supportedlock xmlns:D="DAV:">…</D:supportedlock>`: exclusive and shared write locks. */
  supportedLock(): string;
}

/**
 * A LOCK or UNLOCK request as the DAV core hands it to `lockHandlers` (lock-handlers.ts),
 * after authentication and path decoding. Header names are lower case.
 */
export interface LockRequest {
  account: UserRow;
  /** Tree path of the Request-URI (absolute, NFC). */
  path: string;
  headers: { if?: string; timeout?: string; depth?: string; 'lock-token'?: string };
  /** The request body as text (bounded by the DAV core), '' when none. */
  body: string;
  hrefOf: WriteContext['hrefOf'];
  pathOfHref: WriteContext['pathOfHref'];
}

/** What the DAV core sends back for LOCK/UNLOCK: status, extra headers, XML body ('' for none). */
export interface DavReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}
