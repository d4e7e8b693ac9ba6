import { describe, expect, it } from 'vitest';
import { fileCategory } from './file-types.js';
import { checkEmail, checkFolderName, checkName, checkPassword } from './rules.js';

describe('validation rules', () => {
  it('accepts 9–20 character passwords with a letter, a digit and a special of either reading', () => {
    for (const ok of [
      'Abcdefg1!',
      'abcdefg1@',
      'abcdefg1$',
      'abcdefg1%',
      'abcdefg1^',
      'abcdefg1&',
      'abcdefg1*',
      'abcdefg1#',
      'abcdefg1?',
      'a1!'.padEnd(20, 'x'),
    ]) {
      expect({ ok, key: checkPassword(ok) }).toEqual({ ok, key: null });
    }
    for (const bad of ['Abcdef1!', 'abcdefghij!', 'abcdefghij1', '123456789!', 'a1!'.padEnd(21, 'x'), 'abcdefg1!~', 'abc def1!x']) {
      expect({ bad, key: checkPassword(bad) }).toEqual({ bad, key: 'rules_password_pattern' });
    }
    expect(checkPassword('')).toBe('rules_password');
  });

  it('checks email presence and shape', () => {
    expect(checkEmail('')).toBe('rules_email_required');
    expect(checkEmail('   ')).toBe('rules_email_required');
    expect(checkEmail('a@b')).toBe('rules_email_pattern');
    expect(checkEmail('사용자@회사.kr')).toBeNull();
    expect(checkEmail('user@example.com')).toBeNull();
  });

  it('allows Korean and English letters with spaces in names', () => {
    expect(checkName('홍길동')).toBeNull();
    expect(checkName('Kim Minsu')).toBeNull();
    expect(checkName('')).toBe('rules_name_required');
    expect(checkName('Kim2')).toBe('rules_name_pattern');
    expect(checkName('<script>')).toBe('rules_name_pattern');
  });

  it('applies the folder-name rule', () => {
    for (const ok of ['보고서', 'Team_A', 'Q1 (2026)', 'a!@$%^*()']) expect(checkFolderName(ok)).toBeNull();
    for (const bad of ['', '   ', '..', 'a/b', 'a\\b', 'x.y', 'tab\there', 'a#b']) expect(checkFolderName(bad)).toBe('rules_folder');
  });

  it('categorises files by extension', () => {
    expect(fileCategory('보고서.HWP')).toBe('hwp');
    expect(fileCategory('a.tar.gz')).toBe('compressed');
    expect(fileCategory('sheet.xlsx')).toBe('excel');
    expect(fileCategory('README')).toBe('file');
    expect(fileCategory('.bashrc')).toBe('file');
  });
});
