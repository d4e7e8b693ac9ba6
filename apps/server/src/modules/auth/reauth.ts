import { unauthorized } from '../../errors.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { UserRow, UsersRepo } from '../users/users.repo.js';
import type { LoginGuard } from './login-guard.js';
import { verifyPassword } from './passwords.js';

/**
 * Asks for the current password again before a change that would hand the account to
 * whoever holds an access token: turning off or replacing the second factor, starting a
 * new authenticator app, registering a fingerprint. The check counts like a sign-in (the
 * same lockout and address throttle, admitted before the password is hashed), so a stolen
 * token cannot be used to guess the password either.
 */
export class Reauthentication {
  constructor(
    private readonly users: UsersRepo,
    private readonly guard: LoginGuard,
    private readonly audit: AuditRecorder,
  ) {}

  /** Passes when `password` is the account's current one; 401 `not_matched_origin_password` (423/429 under lockout) otherwise. */
  async confirm(user: UserRow, password: string, ip: string, change: string): Promise<void> {
    const fresh = await this.users.findById(user.id);
    const right = await this.guard.verify(ip, fresh, async () => fresh !== undefined && (await verifyPassword(fresh.password_hash, password)));
    if (!right) {
      await this.audit.record({
        action: 'auth.password_check_failed',
        outcome: 'refused',
        reason: 'not_matched_origin_password',
        target: { kind: 'account', id: user.id },
        params: { purpose: change },
        ip,
      });
      throw unauthorized('not_matched_origin_password');
    }
  }
}
