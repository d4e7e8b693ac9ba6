import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Factors, MfaChallenge, MfaMethod } from '@bogwan/contracts';
import type { SecretBox } from '../../crypto/secret-box.js';
import { AppError, badRequest, forbidden, unauthorized } from '../../errors.js';
import { newId } from '../../ids.js';
import { accountActor } from '../audit/audit-context.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { LoginGuard } from '../auth/login-guard.js';
import { signInCodeMail } from '../mail/mail-text.js';
import type { Mailer } from '../mail/mailer.js';
import { languageOf } from '../users/users.presenter.js';
import type { UserRow, UsersRepo } from '../users/users.repo.js';
import type { WebauthnRepo } from '../webauthn/webauthn.repo.js';
import type { ChallengeRow, ChallengesRepo } from './challenges.repo.js';
import { matchTotp, newTotpSecret, totpQrCode } from './totp.js';

export const CHALLENGE_TTL_SECONDS = 600;
const MAX_CODE_ATTEMPTS = 5;
const EMAIL_CODES_PER_WINDOW = 5;
const EMAIL_CODE_WINDOW_MS = 15 * 60_000;

const hashCode = (challengeId: string, code: string) => createHash('sha256').update(`${challengeId}:${code}`).digest();

/**
 * Second factors: a six-digit code by email (valid 10 minutes, single use, bound to the
 * sign-in attempt by a cookie, rate-limited) and an authenticator app (TOTP, each code
 * accepted once). Failures count toward the account lockout.
 */
export class MfaService {
  constructor(
    private readonly challenges: ChallengesRepo,
    private readonly users: UsersRepo,
    private readonly webauthn: WebauthnRepo,
    private readonly guard: LoginGuard,
    private readonly mailer: Mailer,
    /** Authenticator secrets are stored sealed with the server secret, bound to the account. */
    private readonly secrets: SecretBox,
    /** Factor changes (a new authenticator app, the second-factor method) are recorded. */
    private readonly audit: AuditRecorder,
  ) {}

  /** Starts the second step for a user whose password was right; answers the challenge id for the cookie. */
  async begin(user: UserRow): Promise<{ challenge: MfaChallenge; challengeId: string }> {
    const method = user.mfa === 'otp' ? 'otp' : 'email';
    const now = new Date();
    const id = newId(now.getTime());
    const code = method === 'email' ? String(randomInt(0, 1_000_000)).padStart(6, '0') : null;
    const row: ChallengeRow = {
      id,
      user_id: user.id,
      method,
      code_hash: code === null ? null : hashCode(id, code).toString('hex'),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + CHALLENGE_TTL_SECONDS * 1000).toISOString(),
      attempts: 0,
      used_at: null,
    };
    if (code === null) {
      await this.challenges.insert(row);
    } else {
      // Counted and stored in one step per account, so parallel sign-ins send no more codes than the limit.
      const since = new Date(now.getTime() - EMAIL_CODE_WINDOW_MS).toISOString();
      if (!(await this.challenges.insertWithinLimit(row, since, EMAIL_CODES_PER_WINDOW))) throw new AppError(429, 'too_many_requests_message');
      await this.mailer.send(signInCodeMail(user.email, code, languageOf(user)));
    }
    return { challenge: { mfa: method, email: user.email }, challengeId: id };
  }

  /** Checks the code of the attempt named by the cookie; answers the user on success. */
  async complete(challengeId: string | undefined, email: string, code: string, ip: string): Promise<UserRow> {
    const challenge = challengeId ? await this.challenges.find(challengeId) : undefined;
    const user = challenge ? await this.users.findById(challenge.user_id) : undefined;
    if (!challenge || !user || user.email !== email) throw unauthorized('otp_code_expired');
    // Both the sign-in slots and one of the code's attempts are taken before the code is checked.
    const attempt = await this.guard.admit(ip, user);
    const now = new Date();
    if (!(await this.challenges.takeAttempt(challenge.id, MAX_CODE_ATTEMPTS, now.toISOString()))) {
      await this.guard.passed(attempt);
      throw unauthorized('otp_code_expired');
    }
    const step = await this.check(challenge.method, challenge.id, challenge.code_hash, user, code);
    if (step === null) {
      await this.guard.fail(attempt);
      throw unauthorized('login_failure_otp');
    }
    await this.guard.passed(attempt);
    if (!(await this.challenges.consume(challenge.id, now.toISOString()))) throw unauthorized('otp_code_expired');
    if (challenge.method === 'otp' && !(await this.users.advanceOtpStep(user.id, step))) {
      throw unauthorized('login_failure_otp');
    }
    return user;
  }

  /** A new authenticator secret for the signed-in user, pending until a code confirms it. */
  async startOtpRegistration(user: UserRow, email: string): Promise<{ qrCode: string; secret: string }> {
    if (email !== user.email) throw forbidden();
    const secret = newTotpSecret();
    await this.users.setPendingOtpSecret(user.id, this.secrets.seal('totp', secret, user.id));
    return { qrCode: await totpQrCode(secret, user.email), secret };
  }

  /** Confirms the pending secret with a code from the app. */
  async confirmOtpRegistration(user: UserRow, email: string, code: string): Promise<boolean> {
    if (email !== user.email) throw forbidden();
    const fresh = await this.users.findById(user.id);
    if (!fresh?.otp_pending_secret) return false;
    const step = await matchTotp(this.secrets.open('totp', fresh.otp_pending_secret, user.id), code, 0);
    if (step === null) return false;
    // Moved as it is stored: sealed, and bound to the same account.
    await this.users.confirmOtpSecret(user.id, fresh.otp_pending_secret, step);
    // The confirming call signs itself in (its route is public): the account is named here.
    await this.audit.record({
      action: 'auth.factor_change',
      actor: accountActor(user),
      target: { kind: 'account', id: user.id },
      params: { factor: 'otp', change: 'register', replaced: fresh.otp_secret !== null },
    });
    return true;
  }

  async factors(user: UserRow): Promise<Factors> {
    const fresh = (await this.users.findById(user.id)) ?? user;
    return {
      mfa: fresh.mfa as MfaMethod,
      otpRegistered: fresh.otp_secret !== null,
      fingerprints: await this.webauthn.countOfUser(user.id),
    };
  }

  async setMethod(user: UserRow, mfa: MfaMethod): Promise<Factors> {
    const fresh = (await this.users.findById(user.id)) ?? user;
    if (mfa === 'otp' && fresh.otp_secret === null) throw badRequest();
    await this.users.setMfa(user.id, mfa);
    if (fresh.mfa !== mfa)
      await this.audit.record({
        action: 'auth.factor_change',
        target: { kind: 'account', id: user.id },
        params: { factor: 'method', from: fresh.mfa, to: mfa },
      });
    return this.factors(user);
  }

  private async check(method: string, id: string, storedHash: string | null, user: UserRow, code: string): Promise<number | null> {
    if (method === 'email') {
      if (!storedHash) return null;
      const expected = Buffer.from(storedHash, 'hex');
      const actual = hashCode(id, code);
      return expected.length === actual.length && timingSafeEqual(expected, actual) ? 0 : null;
    }
    if (!user.otp_secret) return null;
    return matchTotp(this.secrets.open('totp', user.otp_secret, user.id), code, user.otp_last_step);
  }
}
