import type { LoginRequest, MfaChallenge, SetupStatus } from '@bogwan/contracts';
import { AppError, conflict, forbidden, unauthorized } from '../../errors.js';
import type { EventsService } from '../events/events.service.js';
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
export type LoginOutcome =
  | { kind: 'session'; session: IssuedSession }
  | { kind: 'mfa'; challenge: MfaChallenge; challengeId: string };

/** First run, password sign-in, second steps, sign-out and password change. */
export class AuthService {
  constructor(
    private readonly users: UsersRepo,
    private readonly setupRepo: SetupRepo,
    private readonly setupToken: SetupToken,
    private readonly guard: LoginGuard,
    private readonly mfa: MfaService,
    private readonly sessions: SessionsService,
    private readonly events: EventsService,
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
    await this.events.record({ service: 'auth', message: 'First account created', userId: row.id, ip: client.ip });
    return this.sessions.start(row, client);
  }

  /**
   * Password sign-in. The answer is the same for an unknown email and a wrong password;
   * the account's status is told only to someone who knows its password.
   */
  async login(input: LoginRequest, client: ClientInfo): Promise<LoginOutcome> {
    const user = await this.users.findByEmail(input.email.trim());
    const attempt = await this.guard.admit(client.ip, user);
    const ok = await verifyPassword(user?.password_hash, input.password);
    if (!user || !ok) {
      await this.events.record({
        service: 'auth',
        message: `Sign-in failed for ${input.email.trim().slice(0, 254)}`,
        userId: user?.id ?? null,
        ip: client.ip,
      });
      await this.guard.fail(attempt);
      throw unauthorized('login_failure');
    }
    await this.guard.passed(attempt);
    this.assertActive(user);
    if (user.mfa === 'email' || (user.mfa === 'otp' && user.otp_secret)) {
      const { challenge, challengeId } = await this.mfa.begin(user);
      return { kind: 'mfa', challenge, challengeId };
    }
    return { kind: 'session', session: await this.finish(user, client, 'password') };
  }

  /** The second step of a password sign-in. */
  async completeSecondFactor(challengeId: string | undefined, email: string, code: string, client: ClientInfo): Promise<IssuedSession> {
    const user = await this.mfa.complete(challengeId, email, code, client.ip);
    this.assertActive(user);
    return this.finish(user, client, user.mfa === 'otp' ? 'authenticator code' : 'email code');
  }

  /** Signs in a user who proved who they are some other way (fingerprint). */
  async finish(user: UserRow, client: ClientInfo, method: string): Promise<IssuedSession> {
    this.assertActive(user);
    await this.guard.succeeded(user);
    const now = new Date().toISOString();
    await this.users.recordLogin(user.id, now);
    await this.events.record({ service: 'auth', message: `Signed in (${method})`, userId: user.id, ip: client.ip });
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
    await this.events.record({ service: 'auth', message: 'Signed out', userId, ip: client.ip });
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
    await this.events.record({ service: 'auth', message: 'Password changed', userId: user.id, ip: client.ip });
  }

  private assertActive(user: UserRow): void {
    if (user.status === 'BLOCK') throw new AppError(403, 'login_user_blocked');
    if (user.status !== 'ACTIVE') throw new AppError(403, 'login_user_pending');
  }
}
