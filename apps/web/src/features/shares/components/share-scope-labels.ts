import { k } from '../../../i18n/keys';

/** The catalogue key of each share scope's name. */
export const SCOPE_LABELS = {
  anyone: k('share_scope_anyone'),
  login: k('share_scope_login'),
  specific: k('share_scope_specific'),
  private: k('share_scope_private'),
} as const;
