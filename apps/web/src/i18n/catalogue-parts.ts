/*
 * The catalogues (ko.json, en.json) are whole files on disk, but the build serves each as
 * parts: `common`, loaded before any page shows, and parts whose texts only some screens
 * read, loaded by those screens before they render (`useCataloguePart`). The build's
 * catalogue plugin (build/catalogue-parts-plugin.ts) cuts the files by `partOf`; the
 * catalogue test requires every key of a part other than `common` to be used only in that
 * part's files, so no screen can show a key whose text has not arrived.
 */

/** Parts loaded on demand. `policy`: the route policy list (settings → policy, admins only). */
export const CATALOGUE_PARTS = ['policy'] as const;
export type CataloguePart = (typeof CATALOGUE_PARTS)[number];

/** Source files (under src/) that may use a part's keys; each renders only after the part has loaded. */
export const PART_FILES: Record<CataloguePart, readonly string[]> = {
  policy: ['features/system/components/policy-section.tsx'],
};

/** The part a catalogue key is served in. */
export function partOf(key: string): CataloguePart | 'common' {
  return key.startsWith('policy_') ? 'policy' : 'common';
}
