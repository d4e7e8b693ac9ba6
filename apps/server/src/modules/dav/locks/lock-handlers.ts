import { randomUUID } from 'node:crypto';
import type { FileAccess, FileTree } from '../../files/ports.js';
import type { UserRow } from '../../users/users.repo.js';
import { XmlError, parseXml } from '../xml.js';
import {
  type DavLock,
  DavLockRefusal,
  MAX_LOCKS_PER_ACCOUNT,
  type DavLocksService,
  type DavReply,
  type EtagOf,
  type LockDepth,
  type LockRequest,
  type WriteContext,
  conflictsWith,
  lockTimeoutSeconds,
} from './dav-locks.js';
import { parentOf } from './lock-paths.js';
import { BadLockInfo, conditionXml, lockResponseXml, readLockInfo } from './lock-xml.js';

/** What LOCK and UNLOCK need besides the lock service. */
export interface LockHandlerDeps {
  locks: DavLocksService;
  tree: Pick<FileTree, 'resolve'>;
  access: Pick<FileAccess, 'require'>;
  /** The ETag the DAV core shows for a path (the same as the write check's), null when nothing is there. */
  etagOf: EtagOf;
  /**
   * Stores an empty file at `path` for `account` (RFC 4918 7.3: LOCK on an unmapped URL), as a
   * PUT of zero bytes would, without the lock check (the caller holds the lock). The caller
   * has checked CREATE on the parent folder. A file that appeared there meanwhile is left as
   * it is (never emptied), once UPDATE on it is checked.
   */
  createEmptyFile: (account: UserRow, path: string) => Promise<void>;
}

const reply = (status: number, body = '', headers: Record<string, string> = {}): DavReply => ({ status, headers, body });

/**
 * LOCK and UNLOCK (RFC 4918 9.10, 9.11) with inputs in plain form; refusals are answers
 * (status and `<D:error>` body), permission errors are thrown as the API's AppError.
 */
export class LockHandlers {
  constructor(private readonly deps: LockHandlerDeps) {}

  async lock(request: LockRequest): Promise<DavReply> {
    try {
      if (request.path === '/') return reply(403);
      if (request.body.trim() === '') return await this.refresh(request);
      return await this.create(request);
    } catch (error) {
      if (error instanceof DavLockRefusal) return reply(error.status, error.body);
      if (error instanceof XmlError || error instanceof BadLockInfo) return reply(400);
      throw error;
    }
  }

  async unlock(request: LockRequest): Promise<DavReply> {
    const token = /^\s*<([^<>\s]{1,512})>\s*$/.exec(request.headers['lock-token'] ?? '')?.[1];
    if (!token) return reply(400);
    const { locks, access } = this.deps;
    if (request.path === '/') return reply(409, conditionXml('lock-token-matches-request-uri'));
    // A lock may outlive its resource (removed or renamed through the web): its owner can still
    // remove it, which tells nothing about the tree. Where the resource is, READ is needed.
    if (await this.deps.tree.resolve(request.path)) await access.require(request.account, request.path, 'READ');
    const lock = await locks.repo.findActive(token, locks.now());
    if (!lock || !(await locks.covering(request.path)).some((l) => l.token === token)) {
      return reply(409, conditionXml('lock-token-matches-request-uri'));
    }
    // Only the account that took a lock may remove it; others wait for its timeout.
    if (lock.accountId !== request.account.id) return reply(403);
    await locks.repo.delete(token);
    return reply(204);
  }

  /** A new lock: UPDATE on an existing resource, CREATE in the folder of a new (empty) file. */
  private async create(request: LockRequest): Promise<DavReply> {
    const { locks, tree, access, etagOf } = this.deps;
    const info = readLockInfo(parseXml(request.body));
    const depth = depthOf(request.headers.depth);
    if (!depth) return reply(400);
    const { account, path } = request;
    const context = contextOf(request);
    const existing = await tree.resolve(path);
    if (existing) {
      await access.require(account, path, 'UPDATE');
      await locks.assertConditions(context, etagOf);
    } else {
      const folderPath = parentOf(path);
      // The top level holds root folders only, never files (as PUT answers there).
      if (folderPath === '/') return reply(403);
      const folder = await tree.resolve(folderPath);
      if (!folder || folder.folder !== 1) return reply(409);
      await access.require(account, folderPath, 'CREATE');
      // The new file is a new member of its folder: a lock on the folder must be submitted.
      await locks.assertCanWrite(context, [{ path: folderPath, deep: false }], etagOf);
    }
    const now = locks.now();
    // A bound on what one account keeps in the table (approximate under parallel LOCKs: a guard, not a rule).
    if ((await locks.repo.countActiveOf(account.id, now)) >= MAX_LOCKS_PER_ACCOUNT) return reply(507);
    const timeoutSeconds = lockTimeoutSeconds(request.headers.timeout);
    const lock: DavLock = {
      token: `urn:uuid:${randomUUID()}`,
      path,
      depth,
      scope: info.scope,
      ownerXml: info.ownerXml,
      accountId: account.id,
      timeoutSeconds,
      createdAt: new Date(now).toISOString(),
      expiresAt: now + timeoutSeconds * 1000,
    };
    const conflicts = await locks.repo.insertUnlessConflicting(lock, now, (near) => conflictsWith(near, path, depth, info.scope));
    if (conflicts.length > 0) {
      return reply(
        423,
        conditionXml(
          'no-conflicting-lock',
          conflicts.map((l) => request.hrefOf(l.path)),
        ),
      );
    }
    if (!existing) {
      try {
        await this.deps.createEmptyFile(account, path);
      } catch (error) {
        await locks.repo.delete(lock.token);
        throw error;
      }
    }
    return reply(existing ? 200 : 201, lockResponseXml([lock], request.hrefOf, now), { 'lock-token': `<${lock.token}>` });
  }

  /** A refresh (no body): the If header names the caller's lock(s) on the URL; each gets the new timeout. */
  private async refresh(request: LockRequest): Promise<DavReply> {
    const { locks, tree, access, etagOf } = this.deps;
    if (request.headers.if === undefined) return reply(400);
    if (await tree.resolve(request.path)) await access.require(request.account, request.path, 'UPDATE');
    const submitted = await locks.evaluate(contextOf(request), etagOf);
    const mine = (await locks.covering(request.path)).filter((lock) => submitted.has(lock.token) && lock.accountId === request.account.id);
    if (mine.length === 0) return reply(412, conditionXml('lock-token-submitted'));
    const now = locks.now();
    const timeoutSeconds = lockTimeoutSeconds(request.headers.timeout);
    const refreshed: DavLock[] = [];
    for (const lock of mine) {
      if (await locks.repo.extend(lock.token, now, timeoutSeconds)) refreshed.push({ ...lock, timeoutSeconds, expiresAt: now + timeoutSeconds * 1000 });
    }
    if (refreshed.length === 0) return reply(412, conditionXml('lock-token-submitted'));
    return reply(200, lockResponseXml(refreshed, request.hrefOf, now));
  }
}

/** Depth of a new lock: `0` or `infinity` (the default); anything else is refused. */
function depthOf(header: string | undefined): LockDepth | null {
  if (header === undefined || header.trim().toLowerCase() === 'infinity') return 'infinity';
  return header.trim() === '0' ? '0' : null;
}

function contextOf(request: LockRequest): WriteContext {
  return { account: request.account, ifHeader: request.headers.if, path: request.path, hrefOf: request.hrefOf, pathOfHref: request.pathOfHref };
}
