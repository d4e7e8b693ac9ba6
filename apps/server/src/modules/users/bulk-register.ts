import { checkEmail, checkName, checkPassword, type BulkPreview, type BulkRow } from '@bogwan/contracts';
import type { SheetRows } from './excel-reader.js';

const HEADERS: Record<keyof Omit<BulkRow, 'error'>, string[]> = {
  name: ['name', '이름', '성명'],
  email: ['email', 'e-mail', '이메일', '메일'],
  password: ['password', '비밀번호', '암호'],
  groups: ['groups', 'group', '그룹'],
};

/**
 * Rows of a sheet as bulk rows. A first row naming the columns (English or Korean) decides their
 * order; otherwise the order is name, email, password, groups. Blank rows are skipped; a row with a
 * formula is kept with an error so nobody registers a value they did not see.
 */
export function rowsFromSheet(sheet: SheetRows): BulkRow[] {
  const header = sheet.rows[0]?.map((cell) => cell.trim().toLowerCase()) ?? [];
  const column = (field: keyof typeof HEADERS) => header.findIndex((cell) => HEADERS[field].includes(cell));
  const hasHeader = column('email') >= 0;
  const at = hasHeader
    ? { name: column('name'), email: column('email'), password: column('password'), groups: column('groups') }
    : { name: 0, email: 1, password: 2, groups: 3 };
  const formulas = new Set(sheet.formulaRows);
  const rows: BulkRow[] = [];
  sheet.rows.forEach((cells, index) => {
    if (hasHeader && index === 0) return;
    const cell = (i: number) => (i >= 0 ? (cells[i] ?? '').trim() : '');
    const row: BulkRow = { name: cell(at.name), email: cell(at.email) };
    const password = cell(at.password);
    if (password) row.password = password;
    const groups = cell(at.groups)
      .split(/[,;]/)
      .map((g) => g.trim())
      .filter(Boolean);
    if (groups.length > 0) row.groups = groups;
    if (!row.name && !row.email && !password && groups.length === 0) return;
    if (formulas.has(index)) row.error = 'check_input_message';
    rows.push(row);
  });
  return rows;
}

/** Why a row cannot be registered (a message key), or null. Duplicates are sorted out apart. */
export function rowError(row: BulkRow, knownGroups: Set<string>): string | null {
  if (row.error === 'check_input_message') return row.error;
  return (
    checkName(row.name.trim()) ??
    checkEmail(row.email.trim()) ??
    (row.password !== undefined && row.password !== '' ? checkPassword(row.password) : null) ??
    ((row.groups ?? []).some((g) => !knownGroups.has(g)) ? 'group_not_found' : null)
  );
}

/**
 * The three preview lists: rows with invalid input, rows whose email is taken (by an account, or
 * by an earlier row), and rows that can be registered.
 */
export function classifyRows(rows: BulkRow[], takenEmails: Set<string>, knownGroups: Set<string>): BulkPreview {
  const preview: BulkPreview = { invalid: [], duplicate: [], available: [] };
  const seen = new Set<string>();
  for (const input of rows) {
    const row: BulkRow = { ...input, name: input.name.trim(), email: input.email.trim().toLowerCase() };
    const error = rowError(row, knownGroups);
    if (error) {
      preview.invalid.push({ ...row, error });
      continue;
    }
    delete row.error;
    if (takenEmails.has(row.email)) preview.duplicate.push({ ...row, error: 'rules_email_duplicate' });
    else if (seen.has(row.email)) preview.duplicate.push({ ...row, error: 'bulk_email_repeated' });
    else preview.available.push(row);
    seen.add(row.email);
  }
  return preview;
}
