import { AppError } from '../../../errors.js';
import type { LockedWrite, WriteLocks } from '../../files/ports.js';
import type { DavLocksService } from './dav-locks.js';

/** A tree path in the form locks are kept in (NFC, no empty segments); null for `/`, where no lock can be. */
function lockPathOf(path: string): string | null {
  const segments = path
    .normalize('NFC')
    .split('/')
    .filter((segment) => segment !== '');
  return segments.length > 0 ? `/${segments.join('/')}` : null;
}

/**
 * The WebDAV locks as the web's writes see them (the `WriteLocks` port of the file module):
 * the same rule as a WebDAV write (`DavLocksService.blocking`), with every lock of the account
 * itself counted as submitted, since the web has no If header.
 */
export function webWriteLocks(locks: DavLocksService, log: { warn(details: object, message: string): void }): WriteLocks {
  return {
    async assertCanWrite(user, targets) {
      const wanted = targets.flatMap((target: LockedWrite) => {
        const path = lockPathOf(target.path);
        return path === null ? [] : [{ path, deep: target.deep }];
      });
      if ((await locks.blocking(user.id, wanted, 'own-locks')).length > 0) throw new AppError(423, 'file_locked_warning');
    },
    // Called once the move has committed: a failure here must not turn a done move into an error.
    async releaseUnder(path) {
      const lockPath = lockPathOf(path);
      if (lockPath === null) return;
      try {
        await locks.releaseUnder(lockPath);
      } catch (error) {
        log.warn({ err: error, path: lockPath }, 'WebDAV locks of a moved item not released (they end with their timeout)');
      }
    },
  };
}
