import { LOGIN_MAX_FAILURES } from '@bogwan/contracts';
import { AppError } from '../../errors.js';
import type { UserRow } from '../users/users.repo.js';
import type { LoginGuardRepo } from './login-guard.repo.js';

const IP_WINDOW_MS = 15 * 60_000;

/**
 * Lockout and throttling of sign-in. Five failures in a row restrict the account for a
 * while (423 `login_attempt_restrict`, also for every attempt during the restriction);
 * a success clears the count. Independently, one client address may fail only so often
 * per 15 minutes (429), so nobody can lock every account from one address quickly.
 */
export class LoginGuard {
  constructor(
    private readonly repo: LoginGuardRepo,
    private readonly lockMinutes: number,
    private readonly ipMaxFailures: number,
  ) {}

  /** Refuses the attempt before any password is checked, when the address or account is restricted. */
  async assertMayTry(ip: string, user: UserRow | undefined, now = new Date()): Promise<void> {
    const throttle = await this.repo.ipFailures(ip);
    if (
      throttle &&
      throttle.failures >= this.ipMaxFailures &&
      now.getTime() - new Date(throttle.window_start).getTime() < IP_WINDOW_MS
    ) {
      throw new AppError(429, 'too_many_requests_message');
    }
    if (user?.locked_until && new Date(user.locked_until) > now) {
      throw new AppError(423, 'login_attempt_restrict');
    }
  }

  /** Records a failure; throws 423 when it was the one that restricts the account. */
  async failed(ip: string, user: UserRow | undefined, now = new Date()): Promise<void> {
    await this.repo.addIpFailure(ip, now.toISOString(), new Date(now.getTime() - IP_WINDOW_MS).toISOString());
    if (!user) return;
    const count = await this.repo.addAccountFailure(user.id);
    if (count >= LOGIN_MAX_FAILURES) {
      await this.repo.lockAccount(user.id, new Date(now.getTime() + this.lockMinutes * 60_000).toISOString());
      throw new AppError(423, 'login_attempt_restrict');
    }
  }

  async succeeded(user: UserRow): Promise<void> {
    if (user.failed_logins !== 0 || user.locked_until !== null) await this.repo.clearAccount(user.id);
  }

  /** Lifts a restriction (operator command line). */
  async unlock(userId: string): Promise<void> {
    await this.repo.clearAccount(userId);
  }
}
