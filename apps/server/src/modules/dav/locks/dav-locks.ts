import type { UserRow } from '../../users/users.repo.js';
import { MalformedIfHeader, evaluateIf, parseIfHeader } from './if-header.js';
import { isBelow, rootSegment } from './lock-paths.js';
import { commonFolder, covers, unsatisfied } from './lock-rules.js';
import { conditionXml, lockDiscoveryXml, supportedLockXml } from './lock-xml.js';
import type { DavLocksRepo } from './locks.repo.js';

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
  /** `lockDiscovery` of many paths (a folder and its members) in one query per root folder, by path; a path without locks is absent. */
  lockDiscoveryAll(paths: string[], hrefOf: (path: string) => string): Promise<Map<string, string>>;
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

export { DEFAULT_LOCK_SECONDS, MAX_LOCK_SECONDS, MAX_LOCKS_PER_ACCOUNT, conflictsWith, covers, lockTimeoutSeconds } from './lock-rules.js';

/** The locks a write check and lockdiscovery use, from the database, at the service's clock. */
export class DavLocksService implements DavLocks {
  constructor(
    readonly repo: DavLocksRepo,
    /** Epoch milliseconds; tests move it to see locks expire. */
    readonly now: () => number = Date.now,
  ) {}

  async assertCanWrite(context: WriteContext, targets: WriteTarget[], etagOf: EtagOf): Promise<void> {
    const submitted = await this.evaluate(context, etagOf, targets);
    const blocking = await this.blocking(context.account.id, targets, submitted);
    if (blocking.length > 0) {
      throw new DavLockRefusal(
        423,
        conditionXml(
          'lock-token-submitted',
          blocking.map((lock) => context.hrefOf(lock.path)),
        ),
      );
    }
  }

  /**
   * The one answer to "which locks keep this account from writing these targets": every active
   * lock reaching a target (on it, on an ancestor with depth infinity, or, when `deep`, below
   * it) that `submitted` does not satisfy (`unsatisfied`). `submitted` is the tokens of a
   * WebDAV request's If header; `'own-locks'` (the web, which has no If header) counts every
   * lock of the account itself as submitted, so only other accounts' locks block.
   */
  async blocking(accountId: string, targets: WriteTarget[], submitted: Set<string> | 'own-locks'): Promise<DavLock[]> {
    const blocking: DavLock[] = [];
    for (const target of targets) {
      const near = await this.repo.near(target.path, this.now(), target.deep);
      const reaching = near.filter((lock) => covers(lock, target.path) || (target.deep && isBelow(lock.path, target.path)));
      const tokens = submitted === 'own-locks' ? new Set(reaching.filter((lock) => lock.accountId === accountId).map((lock) => lock.token)) : submitted;
      blocking.push(...unsatisfied(reaching, tokens, accountId));
    }
    return blocking;
  }

  async assertConditions(context: WriteContext, etagOf: EtagOf): Promise<void> {
    await this.evaluate(context, etagOf);
  }

  /**
   * Parses and evaluates the If header (400 malformed, 412 false); answers the tokens it
   * submits. No header: nothing submitted. A state token holds for a resource when it names a
   * lock that reaches it or is rooted below it (a client deleting or moving a folder submits
   * the tokens of locked members). In untagged lists it also holds when its lock reaches one
   * of `targets` (clients send the token of a MOVE or COPY destination's lock untagged).
   */
  async evaluate(context: WriteContext, etagOf: EtagOf, targets: WriteTarget[] = []): Promise<Set<string>> {
    if (context.ifHeader === undefined) return new Set();
    let lists;
    try {
      lists = parseIfHeader(context.ifHeader);
    } catch (error) {
      if (error instanceof MalformedIfHeader) throw new DavLockRefusal(400, '');
      throw error;
    }
    const now = this.now();
    const relevant = async (path: string, deep: boolean) =>
      (await this.repo.near(path, now, deep)).filter((lock) => covers(lock, path) || (deep && isBelow(lock.path, path))).map((lock) => lock.token);
    const outcome = await evaluateIf(lists, context.path, context.pathOfHref, {
      etagOf,
      tokensFor: async (path) => {
        const tokens = new Set(await relevant(path, true));
        if (path === context.path) for (const target of targets) for (const token of await relevant(target.path, target.deep)) tokens.add(token);
        return tokens;
      },
    });
    if (!outcome.holds) throw new DavLockRefusal(412, '');
    return outcome.submitted;
  }

  async releaseUnder(path: string): Promise<void> {
    await this.repo.deleteUnder(path);
  }

  async lockDiscovery(path: string, hrefOf: (path: string) => string): Promise<string> {
    const now = this.now();
    const locks = (await this.repo.near(path, now, false)).filter((lock) => covers(lock, path));
    return lockDiscoveryXml(locks, hrefOf, now);
  }

  supportedLock(): string {
    return supportedLockXml();
  }

  /**
   * `lockDiscovery` of many paths at once (a PROPFIND of a folder and its members): one query
   * per root folder instead of one per path. Answers the XML by path, for the paths some
   * lock covers (the others have an empty `<D:lockdiscovery>`).
   */
  async lockDiscoveryAll(paths: string[], hrefOf: (path: string) => string): Promise<Map<string, string>> {
    const now = this.now();
    const result = new Map<string, string>();
    const byRoot = new Map<string, string[]>();
    for (const path of paths) {
      // Pushed in place: copying the group for each path made a 10,000-entry listing quadratic.
      const root = rootSegment(path);
      const group = byRoot.get(root);
      if (group) group.push(path);
      else byRoot.set(root, [path]);
    }
    for (const [root, group] of byRoot) {
      // The deepest folder holding them all: the locks above it, on it and below it answer for every one.
      const near = root === '' ? [] : await this.repo.near(commonFolder(group), now, true);
      // Only locked paths are answered (a listing without locks, the usual case, makes no entries).
      if (near.length === 0) continue;
      for (const path of group) {
        const covering = near.filter((lock) => covers(lock, path));
        if (covering.length > 0) result.set(path, lockDiscoveryXml(covering, hrefOf, now));
      }
    }
    return result;
  }

  /** The active locks reaching `path` (rooted there or above with depth infinity). */
  async covering(path: string): Promise<DavLock[]> {
    return (await this.repo.near(path, this.now(), false)).filter((lock) => covers(lock, path));
  }

  /** Deletes expired locks; the housekeeping entry of app.ts. */
  housekeeping(): { name: string; run: () => Promise<void> } {
    return { name: 'webdav locks', run: () => this.repo.purgeExpired(this.now()) };
  }
}

/**
 * Drops the locks of items moved to the trash by any client (the web's trash as well as
 * WebDAV DELETE), once the move has committed: a lock must not stay on the URL of a file
 * that is gone. `paths` gives the paths the items had (FileTreeService.anyPaths).
 */
export function releaseLocksOnTrash(
  tree: { onTrashMove(listener: (nodeIds: string[]) => Promise<void>): void; anyPaths(ids: string[]): Promise<Map<string, string>> },
  locks: DavLocks,
  log: { warn(details: object, message: string): void },
): void {
  tree.onTrashMove(async (nodeIds) => {
    try {
      for (const path of (await tree.anyPaths(nodeIds)).values()) await locks.releaseUnder(path);
    } catch (error) {
      log.warn({ err: error }, 'WebDAV locks of trashed items not released (they end with their timeout)');
    }
  });
}
