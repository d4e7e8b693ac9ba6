// The rules of WebDAV write locks (RFC 4918 sections 6, 7, 10.7) as plain functions.
import type { DavLock, LockDepth, LockScope } from './dav-locks.js';
import { isBelow } from './lock-paths.js';

/** Default lock timeout when the client asks for none, and the longest granted (`Infinite` included). */
export const DEFAULT_LOCK_SECONDS = 3600;
export const MAX_LOCK_SECONDS = 24 * 3600;
/** Most active locks one account may hold (each is a row every write check may read); past it LOCK is 507. */
export const MAX_LOCKS_PER_ACCOUNT = 1000;

/**
 * The lock timeout from a `Timeout` header (RFC 4918 10.7): the first `Second-N` or
 * `Infinite` of the list, clamped to MAX_LOCK_SECONDS; DEFAULT_LOCK_SECONDS when absent or
 * unreadable (the server may choose, RFC 4918 10.7).
 */
export function lockTimeoutSeconds(header: string | undefined): number {
  for (const part of (header ?? '').split(',').slice(0, 8)) {
    const value = part.trim();
    if (/^infinite$/i.test(value)) return MAX_LOCK_SECONDS;
    const seconds = /^Second-(\d{1,12})$/i.exec(value);
    if (seconds) return Math.min(Math.max(Number(seconds[1]), 1), MAX_LOCK_SECONDS);
  }
  return DEFAULT_LOCK_SECONDS;
}

/** True when `lock` reaches `path`: rooted there, or above it with depth infinity. */
export function covers(lock: DavLock, path: string): boolean {
  return lock.path === path || (lock.depth === 'infinity' && isBelow(path, lock.path));
}

/**
 * The locks among `near` that a new lock (`path`, `depth`, `scope`) conflicts with: those
 * covering its path, and with depth infinity those rooted below it; exclusive conflicts with
 * all of them, shared only with exclusive ones.
 */
export function conflictsWith(near: DavLock[], path: string, depth: LockDepth, scope: LockScope): DavLock[] {
  return near.filter(
    (lock) => (covers(lock, path) || (depth === 'infinity' && isBelow(lock.path, path))) && (scope === 'exclusive' || lock.scope === 'exclusive'),
  );
}

/**
 * The locks among `reaching` that the request has not satisfied. An exclusive lock needs its
 * own token, submitted by its account. Shared locks rooted at one path are satisfied by any
 * one of them so submitted (they share the resource).
 */
export function unsatisfied(reaching: DavLock[], submitted: Set<string>, accountId: string): DavLock[] {
  const mine = (lock: DavLock) => submitted.has(lock.token) && lock.accountId === accountId;
  const sharedRootsHeld = new Set(reaching.filter((lock) => lock.scope === 'shared' && mine(lock)).map((lock) => lock.path));
  return reaching.filter((lock) => !mine(lock) && !(lock.scope === 'shared' && sharedRootsHeld.has(lock.path)));
}

/** The deepest path that is `path` or a folder above it, for every one of `paths` (same root). */
export function commonFolder(paths: string[]): string {
  // Shrunk by whole segments while some path is neither it nor below it: one prefix test per
  // path (a 10,000-entry listing split every path into segments before).
  let common = paths[0]!;
  for (let i = 1; i < paths.length; i += 1) {
    const path = paths[i]!;
    while (common !== '' && path !== common && !path.startsWith(common.endsWith('/') ? common : `${common}/`)) {
      common = common.slice(0, Math.max(0, common.lastIndexOf('/')));
    }
  }
  return common;
}
