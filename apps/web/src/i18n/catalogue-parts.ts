/*
 * The catalogues (ko.json, en.json) are whole files on disk, but the build serves each as
 * parts: `common`, loaded before any page shows, and parts whose texts only some screens
 * read, loaded by those screens before they render (`useCataloguePart`). The build's
 * catalogue plugin (build/catalogue-parts-plugin.ts) cuts the files by `cataloguePartsOf`:
 * a key goes to a part when every source file that uses it is one of that part's files
 * (PART_FILES); any other key stays common. The catalogue test requires every file of a
 * part to be reached only through files that wait for that part, so no screen can show a
 * key whose text has not arrived.
 */

/**
 * Parts loaded on demand. `policy`: the route policy list (settings → policy). `settings`:
 * the settings dialog's sections (and the password change required at sign-in). `log`: the access log (/log, and in
 * settings). `snapshot`: /snapshot and /restore. `dashboard`: /dashboard. `trash`: /trash.
 */
export const CATALOGUE_PARTS = ['policy', 'settings', 'log', 'snapshot', 'dashboard', 'trash'] as const;
export type CataloguePart = (typeof CATALOGUE_PARTS)[number];

/**
 * Source files (paths under src/; one ending in `/` stands for every file below it) whose
 * texts a part holds. Each is rendered only below a file that waits for the part
 * (`useCataloguePart`), which the catalogue test checks through the imports.
 */
export const PART_FILES: Record<CataloguePart, readonly string[]> = {
  policy: ['features/system/components/policy-section.tsx'],
  settings: [
    'app/settings-dialog.tsx',
    'features/settings/components/sections.ts',
    'features/settings/components/settings-tree.tsx',
    'features/accounts/components/',
    'features/accounts/lib/',
    'features/groups/components/',
    'features/groups/lib/',
    'features/permissions/components/',
    'features/permissions/lib/',
    'features/webhooks/components/',
    'features/storage/components/',
    'features/storage/lib/',
    'features/system/components/information-section.tsx',
    'features/system/components/network-section.tsx',
    'features/licence/components/licence-panel.tsx',
    'features/activity/components/audit-retention-section.tsx',
    'features/activity/components/activity-section.tsx',
    'features/notifications/components/notification-section.tsx',
    'features/profile/components/profile-section.tsx',
    'features/profile/components/delete-account-section.tsx',
    'features/profile/components/delete-account-dialog.tsx',
    'features/settings/components/security/',
  ],
  log: [
    'routes/log/',
    'features/system/components/access-log-table.tsx',
    'features/system/components/access-log-columns.tsx',
    'features/system/lib/access-log-filter.ts',
  ],
  snapshot: ['routes/snapshot/', 'routes/restore/', 'features/snapshots/components/', 'features/snapshots/lib/'],
  dashboard: ['routes/dashboard/', 'features/dashboard/components/', 'features/dashboard/lib/'],
  trash: ['routes/trash/', 'features/trash/components/trash-view.tsx', 'features/trash/components/retention-form.tsx'],
};

/**
 * Keys kept common although only one part's files use them in the sources: texts the server
 * names (its message keys) can be shown on any screen. The catalogue test lists any such
 * key found in a part.
 */
export const COMMON_KEYS: readonly string[] = [
  'check_input_message',
  'default_group_unrenamable',
  'delete_account_reason_choice',
  'excel_invalid_file',
  'no_register_information',
  'not_matched_origin_password',
  'password_change_complete_message',
  'reauth_password_required',
  'request_success_message',
  'rules_password',
  'rules_password_pattern',
  'snapshot_schedule_limit',
  'trash_retention_invalid',
  'version_settings_invalid',
  'webhook_access_token_length',
  'webhook_token_pattern',
];

/** The part whose files include `file` (a path under src/ with `/` separators), if any. */
export function partOfFile(file: string): CataloguePart | 'common' {
  for (const part of CATALOGUE_PARTS) {
    if (PART_FILES[part].some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry))) return part;
  }
  return 'common';
}

/*
 * Keys count as used when they appear in the web sources as a call of `t` (also `i18n.t`)
 * or `k` (keys kept in maps and lists, see keys.ts) with the key as a quoted literal, or as
 * the literal `i18nKey` of a Trans. Keys are snake_case.
 */
const USE_PATTERNS = [/\bt\(\s*['"]([a-z0-9_]+)['"]/g, /\bk\(\s*['"]([a-z0-9_]+)['"]/g, /\bi18nKey=\{?\s*['"]([a-z0-9_]+)['"]/g];

/** Keys used in one source text. */
export function keysIn(source: string): string[] {
  return USE_PATTERNS.flatMap((pattern) => Array.from(source.matchAll(pattern), (match) => match[1] as string));
}

/**
 * The part each catalogue key is served in, from the sources (path under src/ → text, tests
 * left out): `policy_*` in `policy`; a key every user of which is a file of one part, in that
 * part; any other key (used across parts, in common files, or named only at run time) common.
 */
export function cataloguePartsOf(keys: readonly string[], sources: ReadonlyMap<string, string>): Map<string, CataloguePart | 'common'> {
  const partsUsing = new Map<string, Set<CataloguePart | 'common'>>();
  for (const [file, text] of sources) {
    const part = partOfFile(file);
    for (const key of keysIn(text)) {
      let parts = partsUsing.get(key);
      if (!parts) partsUsing.set(key, (parts = new Set()));
      parts.add(part);
    }
  }
  const result = new Map<string, CataloguePart | 'common'>();
  for (const key of keys) {
    if (key.startsWith('policy_')) {
      result.set(key, 'policy');
      continue;
    }
    // A plural form (`x_one`, `x_other`) goes with the key the code uses (`x`).
    const parts = partsUsing.get(key) ?? partsUsing.get(key.replace(/_(one|other)$/, ''));
    const only = parts?.size === 1 ? [...parts][0]! : 'common';
    result.set(key, COMMON_KEYS.includes(key) ? 'common' : only);
  }
  return result;
}
