import type { LoginRequest, MfaChallenge, SetupStatus } from '@bogwan/contracts';
import { AppError, conflict, forbidden, unauthorized } from '../../errors.js';
import { accountActor } from '../audit/audit-context.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { MfaService } from '../mfa/mfa.service.js';
import type { ClientInfo, IssuedSession, SessionsService } from '../sessions/sessions.service.js';
import { newLocalUser } from '../users/new-user.js';
import type { UserRow, UsersRepo } from '../users/users.repo.js';
import type { LoginGuard } from './login-guard.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { SetupRepo } from './setup.repo.js';
import type { SetupToken } from './setup-token.js';

export interface SetupInput {
  token: string;
  name: string;
  email: string;
  password: string;
}

/** Either a finished sign-in, or a second factor to ask for. */
export type LoginOutcome = { kind: 'session'; session: IssuedSession } | { kind: 'mfa'; challenge: MfaChallenge; challengeId: string };

/** Refusals already recorded by the step that threw them (a wrong password before its lockout check). */
const RECORDED = new WeakSet<AppError>();

/** The audit target of an account: its id and who it is. */
function accountTarget(user: Pick<UserRow, 'id' | 'name' | 'email'>) {
  return { kind: 'account' as const, id: user.id, label: `${user.name} <${user.email}>` };
}

/** First run, password sign-in, second steps, sign-out and password change. */
export class AuthService {
  constructor(
    private readonly users: UsersRepo,
    private readonly setupRepo: SetupRepo,
    private readonly setupToken: SetupToken,
    private readonly guard: LoginGuard,
    private readonly mfa: MfaService,
    private readonly sessions: SessionsService,
    private readonly audit: AuditRecorder,
  ) {}

  async setupStatus(): Promise<SetupStatus> {
    return { required: (await this.users.count()) === 0 };
  }

  /** Creates the first account (MASTER, ACTIVE) with the one-time setup token. */
  async setup(input: SetupInput, client: ClientInfo): Promise<IssuedSession> {
    if ((await this.users.count()) > 0) throw conflict('setup_already_done');
    if (!(await this.setupToken.matches(input.token))) throw forbidden('setup_token_invalid');
    const row = await newLocalUser({ ...input, role: 'MASTER', lastLogin: new Date().toISOString() });
    if (!(await this.setupRepo.completeSetup(row))) throw conflict('setup_already_done');
    this.setupToken.removeFile();
    await this.audit.record({ action: 'auth.setup', actor: accountActor(row), target: accountTarget(row), ip: client.ip });
    return this.sessions.start(row, client);
  }

  /**
   * Password sign-in. The answer is the same for an unknown email and a wrong password;
   * the account's status is told only to someone who knows its password.
   */
  async login(input: LoginRequest, client: ClientInfo): Promise<LoginOutcome> {
    const email = input.email.trim();
    const user = await this.users.findByEmail(email);
    return this.refusalsRecorded(email, user, 'password', client, async () => {
      const attempt = await this.guard.admit(client.ip, user);
      const ok = await verifyPassword(user?.password_hash, input.password);
      if (!user || !ok) {
        // The wrong password is recorded; when it is the one that restricts the account, `auth.locked` follows.
        const refusal = unauthorized('login_failure');
        await this.recordRefusal(email, user, 'password', client, refusal);
        await this.guard.fail(attempt);
        throw refusal;
      }
      await this.guard.passed(attempt);
      this.assertActive(user);
      if (user.mfa === 'email' || (user.mfa === 'otp' && user.otp_secret)) {
        const { challenge, challengeId } = await this.mfa.begin(user);
        return { kind: 'mfa', challenge, challengeId };
      }
      return { kind: 'session', session: await this.finish(user, client, 'password') };
    });
  }

  /** The second step of a password sign-in. */
  async completeSecondFactor(challengeId: string | undefined, email: string, code: string, client: ClientInfo): Promise<IssuedSession> {
    const claimed = await this.users.findByEmail(email.trim());
    const method = claimed?.mfa === 'otp' ? 'authenticator code' : 'email code';
    return this.refusalsRecorded(email.trim(), claimed, method, client, async () => {
      const user = await this.mfa.complete(challengeId, email, code, client.ip);
      this.assertActive(user);
      return this.finish(user, client, method);
    });
  }

  /**
   * Runs a sign-in step; a refusal it throws (wrong secret, restricted account 423, address
   * throttled 429, blocked or pending account) is recorded before it goes on: `auth.locked`
   * for a restriction, `auth.sign_in_failed` else, with the refusal's message key. Failures
   * the step recorded itself (`recordRefusal`) are not recorded twice.
   */
  async refusalsRecorded<T>(email: string, user: UserRow | undefined, method: string, client: ClientInfo, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (error instanceof AppError && error.statusCode < 500 && !RECORDED.has(error)) await this.recordRefusal(email, user, method, client, error);
      throw error;
    }
  }

  /** Records one refused sign-in step (see `refusalsRecorded`). */
  async recordRefusal(email: string, user: UserRow | undefined, method: string, client: ClientInfo, error: AppError): Promise<void> {
    RECORDED.add(error);
    // The account tried is the actor (its owner sees the attempts); an unknown e-mail has none.
    const actor = user ? accountActor(user) : { kind: 'account' as const, id: null, accountId: null, label: email.slice(0, 254) };
    await this.audit.record({
      action: error.statusCode === 423 ? 'auth.locked' : 'auth.sign_in_failed',
      outcome: 'refused',
      reason: error.messageKey,
      actor,
      target: user ? accountTarget(user) : { kind: 'account', id: null, label: email.slice(0, 254) },
      params: { method, email: email.slice(0, 254) },
      ip: client.ip,
    });
  }

  /** Signs in a user who proved who they are some other way (fingerprint). */
  async finish(user: UserRow, client: ClientInfo, method: string): Promise<IssuedSession> {
    this.assertActive(user);
    await this.guard.succeeded(user);
    const now = new Date().toISOString();
    await this.users.recordLogin(user.id, now);
    await this.audit.record({ action: 'auth.sign_in', actor: accountActor(user), target: accountTarget(user), params: { method }, ip: client.ip });
    return this.sessions.start({ ...user, last_login: now, failed_logins: 0, locked_until: null }, client);
  }

  /** Checks a password for a step that needs it (first fingerprint), with the lockout rules. */
  async checkPassword(email: string, password: string, client: ClientInfo): Promise<UserRow> {
    const user = await this.users.findByEmail(email);
    const right = await this.guard.verify(client.ip, user, () => verifyPassword(user?.password_hash, password));
    if (!user || !right) throw unauthorized('login_failure');
    this.assertActive(user);
    return user;
  }

  async logout(sessionId: string, userId: string, client: ClientInfo): Promise<void> {
    await this.sessions.end(sessionId);
    await this.audit.record({
      action: 'auth.sign_out',
      actor: { kind: 'account', id: userId, accountId: userId },
      target: { kind: 'account', id: userId },
      ip: client.ip,
    });
  }

  /**
   * Changes the password; every other session of the account ends. The current password is
   * checked like a sign-in (lockout and address throttle), so an access token alone cannot
   * be used to guess it.
   */
  async changePassword(user: UserRow, sessionId: string, current: string, next: string, client: ClientInfo): Promise<void> {
    if (!(await this.guard.verify(client.ip, user, () => verifyPassword(user.password_hash, current)))) throw unauthorized('not_matched_origin_password');
    await this.users.setPassword(user.id, await hashPassword(next));
    await this.sessions.endAllOf(user.id, sessionId);
    await this.audit.record({ action: 'auth.password_change', actor: accountActor(user), target: accountTarget(user), ip: client.ip });
  }

  private assertActive(user: UserRow): void {
    if (user.status === 'BLOCK') throw new AppError(403, 'login_user_blocked');
    if (user.status !== 'ACTIVE') throw new AppError(403, 'login_user_pending');
  }
}
