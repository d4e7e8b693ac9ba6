/** Business constants and limits from the specification (section 9 of both documents). */

export const CHUNK_SIZE = 10_485_760;

export const PASSWORD_MIN_LENGTH = 9;
export const PASSWORD_MAX_LENGTH = 20;
export const OTP_LENGTH = 6;
export const LOGIN_MAX_FAILURES = 5;

export const SEARCH_MIN_LENGTH = 2;
export const SEARCH_MAX_LENGTH = 50;
export const SEARCH_DELAY_MS = 500;
export const SEARCH_PREVIEW_MAX_HEIGHT = 560;

export const PAGE_SIZE_DEFAULT = 10;
export const PAGE_SIZE_FALLBACK = 20;
export const PAGE_SIZE_MIN = 5;
export const PAGE_SIZE_MAX = 50;
export const SETTINGS_PAGE_SIZE = 15;
export const SETTINGS_PAGE_SIZE_CHOICES = [10, 20, 50, 100] as const;
export const BULK_PREVIEW_PAGE_SIZE = 5;
/** Rows one bulk registration may carry (a larger sheet is refused, not cut). */
export const BULK_REGISTER_MAX_ROWS = 1000;
/** Largest Excel file accepted for bulk registration, in bytes. */
export const BULK_REGISTER_MAX_BYTES = 5 * 1_048_576;
/** Largest avatar image accepted, in bytes; it is resized to AVATAR_SIZE pixels square. */
export const AVATAR_MAX_BYTES = 10 * 1_048_576;
export const AVATAR_SIZE = 256;
/** Time the web waits after deleting one's account before signing out. */
export const DELETE_ACCOUNT_REDIRECT_MS = 2000;
export const ACTIVITY_FETCH_LIMIT = 1000;

export const LICENSE_POLL_MS = 5000;
/** Rows of the licence key field (dialog and settings panel). */
export const LICENSE_KEY_ROWS = 4;
export const TOAST_DURATION_MS = 2000;
export const NOTICE_NEW_DAYS = 7;
export const MAX_SNAPSHOT_SCHEDULES = 5;

export const NAV_WIDTH_COLLAPSED = 56;
export const NAV_WIDTH_EXPANDED = 240;
export const NAV_WIDTH_MIN = 56;
export const NAV_WIDTH_MAX = 600;
export const NAV_SNAP_THRESHOLD = 180;
export const NAV_HIDDEN_BELOW = 600;
export const MAIN_MIN_WIDTH = 320;
export const NOTICE_DRAWER_WIDTH = 320;
export const NOTIFICATION_PANEL_WIDTH = 380;
export const TASK_PANEL_WIDTH = 400;

export const LOCALE_COOKIE = 'i18n_redirected';
export const LOCALE_COOKIE_DAYS = 365;

export const PRIMARY_LIGHT = '#1e88e5';
export const PRIMARY_DARK = '#1976d2';

export const BUILD_VERSION = '0.1.0_2_20250422';

/** Byte units in base 1024, default GB, for volume limits. */
export const BYTE_UNITS = {
  Bytes: 1,
  KB: 1024,
  MB: 1_048_576,
  GB: 1_073_741_824,
  TB: 1_099_511_627_776,
} as const;
export const DEFAULT_GROUP_NAME = 'default';
