import { MESSAGE_KEYS, type MessageKey } from '@bogwan/contracts';
import type { TFunction } from 'i18next';
import type ko from './ko.json';

/** Every key of the catalogues. */
export type TranslationKey = keyof typeof ko;

/**
 * Marks a catalogue key that is chosen at runtime (kept in a map or a list). The
 * catalogue test collects every `k('…')` literal as a used key, so write keys in
 * maps through this helper rather than as bare strings.
 */
export function k<K extends TranslationKey>(key: K): K {
  return key;
}

function isMessageKey(key: string): key is MessageKey {
  return (MESSAGE_KEYS as readonly string[]).includes(key);
}

/** The text for a server message key, or the generic request failure for anything unknown. */
export function messageText(t: TFunction, key: string | null | undefined): string {
  return key && isMessageKey(key) ? t(key) : t('request_error_message');
}
