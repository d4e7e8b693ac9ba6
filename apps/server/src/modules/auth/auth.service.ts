import { LOCAL_PROVIDER, ROLE_LEVEL, type AuthResponse, type LoginRequest, type SetupStatus } from '@bogwan/contracts';
import { AppError, conflict, forbidden, unauthorized } from '../../errors.js';
import { newId } from '../../ids.js';
import { toUserResponse } from '../users/users.presenter.js';
import type { UserRow, UsersRepo } from '../users/users.repo.js';
import type { AccessTokens } from './access-token.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { SetupRepo } from './setup.repo.js';
import type { SetupToken } from './setup-token.js';

export interface SetupInput {
  token: string;
  name: string;
  email: string;
  password: string;
}

/** First run, password sign-in and sign-out. */
export class AuthService {
  constructor(
    private readonly users: UsersRepo,
    private readonly setupRepo: SetupRepo,
    private readonly setupToken: SetupToken,
    private readonly tokens: AccessTokens,
  ) {}

  async setupStatus(): Promise<SetupStatus> {
    return { required: (await this.users.count()) === 0 };
  }

  /** Creates the first account (MASTER, ACTIVE) with the one-time setup token. */
  async setup(input: SetupInput): Promise<AuthResponse> {
    if ((await this.users.count()) > 0) throw conflict('setup_already_done');
    if (!(await this.setupToken.matches(input.token))) throw forbidden('setup_token_invalid');
    const now = new Date().toISOString();
    const row: UserRow = {
      id: newId(),
      name: input.name,
      email: input.email,
      description: '',
      role: 'MASTER',
      role_level: ROLE_LEVEL.MASTER,
      status: 'ACTIVE',
      approved: 1,
      provider: LOCAL_PROVIDER,
      password_hash: await hashPassword(input.password),
      profile_image: null,
      last_login: now,
      token_version: 0,
      created_at: now,
      updated_at: now,
    };
    if (!(await this.setupRepo.completeSetup(row))) throw conflict('setup_already_done');
    this.setupToken.removeFile();
    return this.session(row);
  }

  /** Password sign-in. The account's status is told only to someone who knows its password. */
  async login(input: LoginRequest): Promise<AuthResponse> {
    const user = await this.users.findByEmail(input.email.trim());
    const ok = await verifyPassword(user?.password_hash, input.password);
    if (!user || !ok) throw unauthorized('login_failure');
    if (user.status === 'BLOCK') throw new AppError(403, 'login_user_blocked');
    if (user.status !== 'ACTIVE') throw new AppError(403, 'login_user_pending');
    const now = new Date().toISOString();
    await this.users.recordLogin(user.id, now);
    return this.session({ ...user, last_login: now });
  }

  /** Ends every session of the account: tokens issued so far stop working. */
  async logout(user: UserRow): Promise<void> {
    await this.users.bumpTokenVersion(user.id);
  }

  private async session(user: UserRow): Promise<AuthResponse> {
    const token = await this.tokens.sign({ sub: user.id, ver: user.token_version });
    return { user: toUserResponse(user), token };
  }
}
