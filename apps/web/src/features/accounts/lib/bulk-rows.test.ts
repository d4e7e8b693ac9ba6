import { describe, expect, it } from 'vitest';
import { allRows, canRegister, parseGroups, replaceRow, rowProblem, totalRows } from './bulk-rows';

describe('bulk registration rows', () => {
  it('names what is wrong with a row', () => {
    expect(rowProblem({ name: '', email: 'a@b.co' })).toBe('rules_name_required');
    expect(rowProblem({ name: 'Kim', email: 'not-an-email' })).toBe('rules_email_pattern');
    expect(rowProblem({ name: 'Kim', email: 'kim@example.com', password: 'short' })).toBe('rules_password_pattern');
    expect(rowProblem({ name: '김 철수', email: 'kim@example.com' })).toBeNull();
  });

  it('allows Register only for a non-empty list of valid rows', () => {
    expect(canRegister([])).toBe(false);
    expect(canRegister([{ name: 'Kim', email: 'kim@example.com' }])).toBe(true);
    expect(
      canRegister([
        { name: 'Kim', email: 'kim@example.com' },
        { name: 'Lee', email: '' },
      ]),
    ).toBe(false);
  });

  it('gathers every row of the three lists without the error notes', () => {
    const preview = {
      invalid: [{ name: '', email: 'x@y.co', error: 'rules_name_required' }],
      duplicate: [{ name: 'Dup', email: 'd@y.co' }],
      available: [{ name: 'Ok', email: 'o@y.co', groups: ['sales'] }],
    };
    expect(allRows(preview)).toEqual([
      { name: '', email: 'x@y.co' },
      { name: 'Dup', email: 'd@y.co' },
      { name: 'Ok', email: 'o@y.co', groups: ['sales'] },
    ]);
    expect(totalRows(preview)).toBe(3);
    const removed = replaceRow(preview, 'duplicate', 0, null);
    expect(removed.duplicate).toEqual([]);
    expect(preview.duplicate).toHaveLength(1);
  });

  it('reads groups typed with commas', () => {
    expect(parseGroups(' sales,  , dev ')).toEqual(['sales', 'dev']);
  });
});
