import { COUNTED_NOTIFICATION_KEYS, NOTIFICATION_KEYS } from '@bogwan/contracts';

/** The plural forms a counted key needs in every catalogue (ko uses `_other`, en both). */
export const PLURAL_SUFFIXES = ['_one', '_other'] as const;

/**
 * Catalogue keys the server decides (stored notification keys and their plural forms),
 * each with where it comes from. The catalogue test requires every one in ko.json and
 * en.json, so a key the server starts using without a text fails the build.
 */
export function serverTextKeys(): Map<string, string> {
  const keys = new Map<string, string>();
  for (const key of NOTIFICATION_KEYS) {
    const forms = COUNTED_NOTIFICATION_KEYS.includes(key) ? PLURAL_SUFFIXES.map((suffix) => `${key}${suffix}`) : [key];
    for (const form of forms) keys.set(form, '@bogwan/contracts NOTIFICATION_KEYS');
  }
  return keys;
}
