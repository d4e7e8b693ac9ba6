import type { AccountLanguage, Role, User, UserStatus } from '@bogwan/contracts';
import { LOCAL_PROVIDER } from '@bogwan/contracts';
import type { UserRow } from './users.repo.js';

/** What of an account leaves the server: never the password hash or token version. */
export function toUserResponse(row: UserRow): User {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    description: row.description,
    role: row.role as Role,
    roleLevel: row.role_level,
    status: row.status as UserStatus,
    approved: row.approved === 1,
    provider: row.provider || LOCAL_PROVIDER,
    profileImage: row.profile_image,
    lastLogin: row.last_login,
    createdAt: row.created_at,
    mustChangePassword: row.must_change_password === 1,
    language: languageOf(row),
  };
}

/** The account's language; anything unknown reads as Korean, the default. */
export function languageOf(row: Pick<UserRow, 'language'>): AccountLanguage {
  return row.language === 'en' ? 'en' : 'ko';
}
