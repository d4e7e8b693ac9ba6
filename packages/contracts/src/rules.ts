import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './limits.js';
import { isValidFileName, normalizeName } from './paths.js';

/**
 * Validation patterns from the specification. Each rule returns the message key the
 * web shows and the server answers with, or null when the value passes.
 */

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MAX_LENGTH = 254;

/** Korean and English letters, spaces allowed between them. */
export const NAME_PATTERN = /^[A-Za-z\u3131-\u318E\uAC00-\uD7A3]+(?: [A-Za-z\u3131-\u318E\uAC00-\uD7A3]+)*$/;
export const NAME_MAX_LENGTH = 50;

/**
 * The two readings disagree on the special set (!@$%^&* and $@!%*#?&); the union is
 * accepted: ! @ $ % ^ & * # ?.
 */
export const PASSWORD_SPECIALS = '!@$%^&*#?';
const SPECIAL_CLASS = '!@$%^&*#?';
export const PASSWORD_PATTERN = new RegExp(
  `^(?=.*[A-Za-z])(?=.*\\d)(?=.*[${SPECIAL_CLASS}])[A-Za-z\\d${SPECIAL_CLASS}]{${PASSWORD_MIN_LENGTH},${PASSWORD_MAX_LENGTH}}$`,
);

/** Folder names: Korean and English letters, digits, underscore, space and ! @ $ % ^ * ( ). */
export const FOLDER_NAME_PATTERN = /^[A-Za-z0-9_ !@$%^*()\u3131-\u318E\uAC00-\uD7A3]+$/;
export const FOLDER_NAME_MAX_LENGTH = 255;

export type RuleKey =
  'rules_email_required' | 'rules_email_pattern' | 'rules_name_required' | 'rules_name_pattern' | 'rules_password' | 'rules_password_pattern' | 'rules_folder';

export function checkEmail(value: string): RuleKey | null {
  const v = value.trim();
  if (!v) return 'rules_email_required';
  if (v.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(v)) return 'rules_email_pattern';
  return null;
}

export function checkName(value: string): RuleKey | null {
  const v = value.trim();
  if (!v) return 'rules_name_required';
  if (v.length > NAME_MAX_LENGTH || !NAME_PATTERN.test(v)) return 'rules_name_pattern';
  return null;
}

export function checkPassword(value: string): RuleKey | null {
  if (!value) return 'rules_password';
  if (!PASSWORD_PATTERN.test(value)) return 'rules_password_pattern';
  return null;
}

/**
 * The folder-name rule: the name rule of every file (`isValidFileName`) and the spec's
 * pattern, checked on the name as it will be stored (NFC, trimmed): Korean typed as jamo
 * (NFD) passes as the syllables it composes to.
 */
export function checkFolderName(value: string): RuleKey | null {
  const v = normalizeName(value).trim();
  if (!isValidFileName(v) || v.length > FOLDER_NAME_MAX_LENGTH || !FOLDER_NAME_PATTERN.test(v)) return 'rules_folder';
  return null;
}
