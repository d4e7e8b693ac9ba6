import type { UserRow } from '../users/users.repo.js';
import type { DavLocks, DavReply, LockRequest } from './locks/dav-locks.js';

// What the WebDAV core takes from other modules. Each is a required argument of the module
// (no "if it exists" at request time): the module fails closed without them.

/** HTTP Basic with the account e-mail and an app password (modules/app-passwords). */
export interface DavAuthenticator {
  verifyBasic(
    authorization: string | undefined,
    client: { ip: string; userAgent?: string },
  ): Promise<{ user: UserRow; appPasswordId: string } | { refused: 'throttled' | 'invalid' }>;
}

/** LOCK and UNLOCK (modules/dav/locks). */
export interface DavLockHandlers {
  lock(request: LockRequest): Promise<DavReply>;
  unlock(request: LockRequest): Promise<DavReply>;
}

export type { DavLocks };
