import { describe, expect, it } from 'vitest';
import { classifyRows, rowsFromSheet } from './bulk-register.js';

describe('bulk registration rows', () => {
  it('reads columns by a Korean header in any order and skips blank rows', () => {
    const rows = rowsFromSheet({
      rows: [
        ['이메일', '이름', '그룹'],
        ['kim@example.com', '김철수', 'sales, dev'],
        ['', '', ''],
      ],
      formulaRows: [],
    });
    expect(rows).toEqual([{ name: '김철수', email: 'kim@example.com', groups: ['sales', 'dev'] }]);
  });

  it('assumes name, email, password, groups without a header and marks formula rows', () => {
    const rows = rowsFromSheet({
      rows: [
        ['Lee', 'lee@example.com', 'Secret!234'],
        ['X', '=A1', ''],
      ],
      formulaRows: [1],
    });
    expect(rows[0]).toEqual({ name: 'Lee', email: 'lee@example.com', password: 'Secret!234' });
    expect(rows[1]?.error).toBe('check_input_message');
  });

  it('sorts rows into invalid, duplicate and available', () => {
    const preview = classifyRows(
      [
        { name: 'Kim', email: 'taken@example.com' },
        { name: 'Park', email: 'park@example.com' },
        { name: 'Park Two', email: 'PARK@example.com' },
        { name: 'Bad1', email: 'bad1@example.com' },
        { name: 'Choi', email: 'not-an-email' },
        { name: 'Jung', email: 'jung@example.com', password: 'short' },
        { name: 'Han', email: 'han@example.com', groups: ['nope'] },
        { name: 'Oh', email: 'oh@example.com', groups: ['sales'] },
      ],
      new Set(['taken@example.com']),
      new Set(['sales']),
    );
    expect(preview.available.map((r) => r.email)).toEqual(['park@example.com', 'oh@example.com']);
    // Each duplicate says whether an account has the email already or an earlier row of the sheet does.
    expect(preview.duplicate.map((r) => [r.email, r.error])).toEqual([
      ['taken@example.com', 'rules_email_duplicate'],
      ['park@example.com', 'bulk_email_repeated'],
    ]);
    expect(preview.invalid.map((r) => [r.name, r.error])).toEqual([
      ['Bad1', 'rules_name_pattern'],
      ['Choi', 'rules_email_pattern'],
      ['Jung', 'rules_password_pattern'],
      ['Han', 'group_not_found'],
    ]);
  });
});
