/** Enumerations named by the specification, shared by server and web. */

export const ROLES = ['USER', 'ADMIN', 'MASTER'] as const;
export type Role = (typeof ROLES)[number];

/** roleLevel per role: 3 top, 2 administrator, 1 ordinary user. */
export const ROLE_LEVEL: Record<Role, 1 | 2 | 3> = { USER: 1, ADMIN: 2, MASTER: 3 };

/** Level a route may ask for: 0 means public (no sign-in). */
export const POLICY_LEVELS = [0, 1, 2, 3] as const;
export type PolicyLevel = (typeof POLICY_LEVELS)[number];

export const USER_STATUSES = ['ACTIVE', 'BLOCK', 'PENDING'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Provider of a local (password) account. */
export const LOCAL_PROVIDER = 'keeper';

export const PERMISSION_TYPES = [
  'READ',
  'PREVIEW',
  'DOWNLOAD',
  'CREATE',
  'UPDATE',
  'MOVE',
  'COPY',
  'SHARE',
  'LOCK',
  'UNLOCK',
  'TRASH',
  'DELETE',
  'SETTING',
] as const;
export type PermissionType = (typeof PERMISSION_TYPES)[number];

/** Access levels: 0 no access, 1 read only, 2 read-write, 3 full access. */
export const ACCESS_LEVELS = [0, 1, 2, 3] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export const REQUEST_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'CANCELED', 'EXPIRED'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const TASK_TYPES = ['upload', 'sync', 'snapshot', 'restore'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const TASK_STATUSES = ['pending', 'running', 'completed', 'canceled', 'failure'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const SHARE_SCOPES = ['anyone', 'login', 'specific', 'private'] as const;
export type ShareScope = (typeof SHARE_SCOPES)[number];

export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];

export const LOCALES = ['ko', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'ko';
