/** Byte order mark: Excel reads a CSV as UTF-8 (Korean included) only when the file starts with it. */
export const UTF8_BOM = '\uFEFF';

/** First characters that make a spreadsheet read a cell as a formula (or, for tab and CR, hide its start). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell: a value that a spreadsheet would run as a formula gets a leading
 * apostrophe (OWASP's advice against CSV injection), then the cell is quoted when it
 * holds a comma, a quote or a line break, quotes doubled.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line, CRLF-terminated as RFC 4180 says. */
export function csvLine(values: (string | number | null | undefined)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
