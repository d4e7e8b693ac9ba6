import { describe, expect, it } from 'vitest';
import { LOCALES } from '../enums.js';
import { AUDIT_ACTIONS } from './audit.js';
import { AUDIT_ACTION_NAMES, auditActionName } from './audit-action-names.js';

describe('audit action names', () => {
  it.each(LOCALES)('names every action of the vocabulary in %s, each differently, never by its key', (locale) => {
    const names = AUDIT_ACTIONS.map((action) => auditActionName(action, locale));
    expect(AUDIT_ACTIONS.filter((action) => !AUDIT_ACTION_NAMES[action]?.[locale]?.trim())).toEqual([]);
    expect(names.filter((name, i) => name === AUDIT_ACTIONS[i])).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('names no action outside the vocabulary, and reads an unknown one as recorded', () => {
    expect(Object.keys(AUDIT_ACTION_NAMES).sort()).toEqual([...AUDIT_ACTIONS].sort());
    expect(auditActionName('future.action', 'en')).toBe('future.action');
  });
});
