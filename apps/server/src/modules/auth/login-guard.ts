import { LOGIN_MAX_FAILURES } from '@bogwan/contracts';
import { AppError } from '../../errors.js';
import type { RateLimit, TakenHit } from '../limits/rate-limit.js';
import type { UserRow } from '../users/users.repo.js';
import type { LoginGuardRepo } from './login-guard.repo.js';

/** The 15-minute window of the per-address throttle. */
export const SIGN_IN_ADDRESS_WINDOW_MS = 15 * 60_000;

/** An admitted sign-in attempt: the slots it holds until its secret is checked. */
export interface SignInAttempt {
  address: TakenHit;
  userId: string | null;
  /** Failures counted on the account with this attempt (it is the last one allowed at LOGIN_MAX_FAILURES). */
  failures: number;
}

const restricted = () => new AppError(423, 'login_attempt_restrict');
const throttled = () => new AppError(429, 'too_many_requests_message');

/**
 * Lockout and throttling of sign-in. Five failures in a row restrict the account for a
 * while (423 `login_attempt_restrict`, also for every attempt during the restriction);
 * a success clears the count. Independently, one client address may fail only so often
 * per 15 minutes (429), so nobody can lock every account from one address quickly.
 *
 * Every attempt is admitted (`admit`) before any secret is checked: it takes a slot of
 * the address and of the account in the database, and attempts in flight hold theirs, so
 * a burst of parallel attempts, on one process or several, checks no more secrets than
 * the limits allow. A right secret gives its slots back (`passed`); a wrong one keeps them.
 */
export class LoginGuard {
  constructor(
    private readonly repo: LoginGuardRepo,
    private readonly lockMinutes: number,
    /** Failures per address and window (`BOGWAN_LOGIN_IP_MAX_FAILURES`). */
    private readonly addresses: RateLimit,
  ) {}

  /** Refuses, without counting anything, an address or account that is restricted now (a step before any secret). */
  async assertMayTry(ip: string, user: UserRow | undefined, now = new Date()): Promise<void> {
    if (await this.addresses.blocked(ip)) throw throttled();
    if (user?.locked_until && new Date(user.locked_until) > now) throw restricted();
  }

  /**
   * Takes the attempt's slots: the account's (423 while it is restricted or its last
   * attempts are in flight), then the address's (429 when its failures are used up). The
   * account comes first so that a burst against one account, refused there, does not fill
   * the address's count with attempts that are never checked.
   */
  async admit(ip: string, user: UserRow | undefined, now = new Date()): Promise<SignInAttempt> {
    let failures = 0;
    if (user) {
      const lockUntil = new Date(now.getTime() + this.lockMinutes * 60_000).toISOString();
      const slot = await this.repo.takeSlot(user.id, LOGIN_MAX_FAILURES, now.toISOString(), lockUntil);
      if (!slot) throw restricted();
      failures = slot.failures;
    }
    const address = await this.addresses.take(ip);
    if (!address) {
      // Refused before any check: not a failure of the account.
      if (user) await this.repo.giveBackSlot(user.id, LOGIN_MAX_FAILURES);
      throw throttled();
    }
    return { address, userId: user?.id ?? null, failures };
  }

  /** The attempt's secret was wrong: its slots stay counted; 423 when it was the failure that restricts the account. */
  async fail(attempt: SignInAttempt): Promise<void> {
    if (attempt.failures >= LOGIN_MAX_FAILURES) throw restricted();
  }

  /** The attempt's secret was right: its slots are given back (a finished sign-in then clears the account's count). */
  async passed(attempt: SignInAttempt): Promise<void> {
    await this.addresses.giveBack(attempt.address);
    if (attempt.userId) await this.repo.giveBackSlot(attempt.userId, LOGIN_MAX_FAILURES);
  }

  /**
   * Checks a secret as an admitted attempt: `check` runs only once the attempt is admitted
   * (423/429 otherwise); a wrong secret keeps its slots (423 when it is the one that
   * restricts the account), a right one gives them back. Answers whether it was right.
   */
  async verify(ip: string, user: UserRow | undefined, check: () => Promise<boolean>): Promise<boolean> {
    const attempt = await this.admit(ip, user);
    if (!(await check())) {
      await this.fail(attempt);
      return false;
    }
    await this.passed(attempt);
    return true;
  }

  /** Records a failure found without an admitted attempt (a fingerprint); throws 423 or 429 like `admit`/`fail`. */
  async failed(ip: string, user: UserRow | undefined): Promise<void> {
    await this.fail(await this.admit(ip, user));
  }

  async succeeded(user: UserRow): Promise<void> {
    await this.repo.clearAccount(user.id);
  }

  /** Lifts a restriction (operator command line). */
  async unlock(userId: string): Promise<void> {
    await this.repo.clearAccount(userId);
  }
}
