import type { FastifyRequest } from 'fastify';
import type { Caller } from '../files/files.service.js';
import type { FileTreeService } from '../files/file-tree.js';
import type { UserRow } from '../users/users.repo.js';
import type { WriteContext, WriteTarget } from './locks/dav-locks.js';
import { type DavTarget, destinationOf, hrefOf, splitItem, treePathOf } from './dav-paths.js';
import type { DavLocks } from './ports.js';
import { etagOf } from './properties.js';

/** One WebDAV request, authenticated and with its target decoded. */
export interface DavRequest {
  request: FastifyRequest;
  user: UserRow;
  caller: Caller;
  target: DavTarget;
}

/** The request's account and decoded target (the authorization hook set the account). */
export function davRequestOf(request: FastifyRequest): DavRequest {
  const user = request.user!;
  return { request, user, caller: { user, ip: request.ip }, target: treePathOf(request.raw.url ?? '') };
}

/** A request header as one string (the first when sent several times). */
export function headerOf(dav: DavRequest, name: string): string | undefined {
  const value = dav.request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The parent folder path of an item path (`/` for a root folder). */
export function parentOf(path: string): string {
  return splitItem(path).folder;
}

/**
 * The lock check of writes: every target (with its parent where a member is added or
 * removed, as dav/locks' WriteTarget says) passes the lock service before anything changes.
 */
export class DavWriteGuard {
  constructor(
    private readonly tree: FileTreeService,
    private readonly locks: DavLocks,
  ) {}

  context(dav: DavRequest): WriteContext {
    const host = dav.request.headers.host;
    return {
      account: dav.user,
      ifHeader: headerOf(dav, 'if'),
      path: dav.target.path,
      hrefOf: (path) => hrefOf(path, false),
      pathOfHref: (href) => {
        try {
          return destinationOf(href, host).path;
        } catch {
          return null;
        }
      },
    };
  }

  /** Refuses (423/412/400, from the lock service) unless every target may be written. */
  assert(dav: DavRequest, targets: WriteTarget[]): Promise<void> {
    const wanted = targets.filter((t) => t.path !== '/');
    return this.locks.assertCanWrite(this.context(dav), wanted, (path) => this.etag(path));
  }

  /** Drops the locks on and under a path (the item there is gone). */
  release(path: string): Promise<void> {
    return this.locks.releaseUnder(path);
  }

  /** The ETag of what is at a path (the lock service's `EtagOf`), null when nothing is there. */
  async etag(path: string): Promise<string | null> {
    if (path === '/') return null;
    const node = await this.tree.resolve(path);
    if (!node) return null;
    // Folders have no content ETag; their id stands for them in If conditions.
    return etagOf(node) ?? `"${node.id}"`;
  }
}
