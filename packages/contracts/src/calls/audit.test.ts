import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, auditExportQuerySchema, auditQuerySchema, auditService, auditSettingsSchema } from './audit.js';

describe('audit contract', () => {
  it('takes one or several actions, comma-separated or repeated, and only from the vocabulary', () => {
    expect(auditQuerySchema.parse({ action: 'file.view, file.download' }).action).toEqual(['file.view', 'file.download']);
    expect(auditQuerySchema.parse({ action: ['auth.sign_in', 'auth.locked'] }).action).toEqual(['auth.sign_in', 'auth.locked']);
    expect(auditQuerySchema.safeParse({ action: 'file.view,file.explode' }).success).toBe(false);
  });

  it('keeps the spec’s paging (skip 0, limit 1000 at most) beside the cursor', () => {
    expect(auditQuerySchema.parse({})).toMatchObject({ skip: 0, limit: 1000 });
    expect(auditQuerySchema.safeParse({ limit: '1001' }).success).toBe(false);
    expect(auditQuerySchema.parse({ before: '42', limit: '50' })).toMatchObject({ before: 42, limit: 50 });
    expect(auditQuerySchema.safeParse({ from: 'last week' }).success).toBe(false);
  });

  it('exports CSV in Korean unless asked otherwise', () => {
    expect(auditExportQuerySchema.parse({})).toMatchObject({ format: 'csv', lang: 'ko' });
    expect(auditExportQuerySchema.safeParse({ format: 'xlsx' }).success).toBe(false);
  });

  it('keeps records at least a year, in whole years', () => {
    expect(auditSettingsSchema.safeParse({ retentionYears: 1 }).success).toBe(true);
    for (const bad of [0, 1.5, -2]) expect(auditSettingsSchema.safeParse({ retentionYears: bad }).success).toBe(false);
  });

  it('names each action’s family as the spec’s service column', () => {
    expect(auditService('share.download')).toBe('share');
    expect(auditService('legacy')).toBe('legacy');
    expect(new Set(AUDIT_ACTIONS).size).toBe(AUDIT_ACTIONS.length);
    for (const action of AUDIT_ACTIONS) expect(action).toMatch(/^[a-z_]+(\.[a-z_]+)?$/);
  });
});
