import type { AccessLevel, FolderAccess, ResourceEntryInput } from '@bogwan/contracts';

/** A folder row's choice: an access level of its own, or 'inherit' (no entry: defaults and parents apply). */
export type AccessChoice = AccessLevel | 'inherit';

/** How a row was loaded: its own level when it has an entry, else 'inherit'. */
export function loadedChoice(row: FolderAccess): AccessChoice {
  return row.explicit ? (row.access as AccessLevel) : 'inherit';
}

/** The entry to send for a changed row: a level, or removal of the entry. */
export function entryFor(entity: string, choice: AccessChoice): ResourceEntryInput {
  return choice === 'inherit' ? { entity, remove: true } : { entity, access: choice };
}

/** Rows whose choice differs from how they were loaded, each with its entry to send. */
export function changedFolders(
  rows: readonly FolderAccess[],
  choices: ReadonlyMap<string, AccessChoice>,
  entity: string,
): { path: string; entry: ResourceEntryInput }[] {
  return rows.flatMap((row) => {
    const choice = choices.get(row.inode);
    if (choice === undefined || choice === loadedChoice(row)) return [];
    return [{ path: row.path, entry: entryFor(entity, choice) }];
  });
}
