import { LOCAL_PROVIDER, ROLE_LEVEL, type Role } from '@bogwan/contracts';
import { newId } from '../../ids.js';
import { hashPassword } from '../auth/passwords.js';
import type { UserRow } from './users.repo.js';

export interface NewLocalUser {
  name: string;
  email: string;
  password: string;
  role: Role;
  /** When the account signs in for the first time as it is created (setup), else null. */
  lastLogin?: string | null;
  /** The password is the system's initial one: the account must choose its own at first sign-in. */
  mustChangePassword?: boolean;
}

/** The row of a new local (password) account: ACTIVE, approved, no second factor. */
export async function newLocalUser(input: NewLocalUser): Promise<UserRow> {
  const now = new Date().toISOString();
  return {
    id: newId(),
    name: input.name.trim(),
    email: input.email.trim().toLowerCase(),
    description: '',
    role: input.role,
    role_level: ROLE_LEVEL[input.role],
    status: 'ACTIVE',
    approved: 1,
    provider: LOCAL_PROVIDER,
    password_hash: await hashPassword(input.password),
    profile_image: null,
    last_login: input.lastLogin ?? null,
    mfa: 'none',
    otp_secret: null,
    otp_pending_secret: null,
    otp_last_step: 0,
    failed_logins: 0,
    locked_until: null,
    created_at: now,
    updated_at: now,
    must_change_password: input.mustChangePassword ? 1 : 0,
    language: 'ko',
  };
}
