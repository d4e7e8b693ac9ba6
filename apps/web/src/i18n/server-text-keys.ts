import { COUNTED_NOTIFICATION_KEYS, NOTIFICATION_KEYS } from '@bogwan/contracts';

/** `policy_desc_<policy name>`: a route policy's description in the reader's language. */
export const POLICY_DESCRIPTION_PREFIX = 'policy_desc_';

/** `policy_cat_<category>`: a route policy's category in the reader's language. */
export const POLICY_CATEGORY_PREFIX = 'policy_cat_';

/** The plural forms a counted key needs in every catalogue (ko uses `_other`, en both). */
export const PLURAL_SUFFIXES = ['_one', '_other'] as const;

/**
 * Catalogue keys the server decides (stored notification keys and their plural forms,
 * policy descriptions among `catalogueKeys`), each with where it comes from. The catalogue test requires every one in ko.json and
 * en.json, so a key the server starts using without a text fails the build.
 */
export function serverTextKeys(catalogueKeys: readonly string[] = []): Map<string, string> {
  const keys = new Map<string, string>();
  // Route policy descriptions (policy list): which policies exist is the server's to say;
  // apps/server/test/policy-text.test.ts checks one key per declared policy, none stale.
  for (const key of catalogueKeys) {
    if (key.startsWith(POLICY_DESCRIPTION_PREFIX) || key.startsWith(POLICY_CATEGORY_PREFIX))
      keys.set(key, 'route policies (apps/server/test/policy-text.test.ts)');
  }
  for (const key of NOTIFICATION_KEYS) {
    const forms = COUNTED_NOTIFICATION_KEYS.includes(key) ? PLURAL_SUFFIXES.map((suffix) => `${key}${suffix}`) : [key];
    for (const form of forms) keys.set(form, '@bogwan/contracts NOTIFICATION_KEYS');
  }
  return keys;
}
