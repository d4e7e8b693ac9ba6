import { checkEmail, checkName, checkPassword, type BulkPreview, type BulkRow } from '@bogwan/contracts';

export type BulkListName = keyof BulkPreview;
export const BULK_LISTS: readonly BulkListName[] = ['invalid', 'duplicate', 'available'];

/** What is wrong with a row as typed (a message key), or null. The password may be left out. */
export function rowProblem(row: BulkRow): string | null {
  return checkName(row.name) ?? checkEmail(row.email) ?? (row.password ? checkPassword(row.password) : null);
}

/** The spec's rule for Register: a non-empty list whose every row has a valid name and email. */
export function canRegister(list: readonly BulkRow[]): boolean {
  return list.length > 0 && list.every((row) => rowProblem(row) === null);
}

/** Every row of the three lists, in order, without the server's error notes. */
export function allRows(preview: BulkPreview): BulkRow[] {
  return BULK_LISTS.flatMap((name) => preview[name].map(({ error: _error, ...row }) => row));
}

export function totalRows(preview: BulkPreview): number {
  return preview.invalid.length + preview.duplicate.length + preview.available.length;
}

/** Groups typed as "a, b" into a list; empty parts dropped. */
export function parseGroups(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** A copy of the preview with one row of one list replaced (null removes it). */
export function replaceRow(preview: BulkPreview, list: BulkListName, index: number, row: BulkRow | null): BulkPreview {
  const rows = [...preview[list]];
  if (row === null) rows.splice(index, 1);
  else rows[index] = row;
  return { ...preview, [list]: rows };
}
