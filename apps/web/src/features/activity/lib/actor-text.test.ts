import type { AuditRecord } from '@bogwan/contracts';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { actorDetail, actorName } from './actor-text';

const t = ((key: string) => `«${key}»`) as unknown as TFunction;
const actor = (patch: Partial<AuditRecord['actor']>): AuditRecord['actor'] => ({
  kind: 'account',
  id: 'u1',
  accountId: 'u1',
  label: null,
  name: null,
  email: null,
  ...patch,
});

describe('who acted', () => {
  it('names an account by its name now, with its e-mail below', () => {
    const a = actor({ name: '박감사', email: 'p@example.com', label: '옛 이름 <p@example.com>' });
    expect([actorName(t, a), actorDetail(t, a)]).toEqual(['박감사', 'p@example.com']);
  });

  it('falls back to the name recorded at the time for a deleted account', () => {
    const a = actor({ label: '퇴사자 <gone@example.com>' });
    expect([actorName(t, a), actorDetail(t, a)]).toEqual(['퇴사자 <gone@example.com>', '']);
    expect(actorName(t, actor({}))).toBe('«audit_actor_gone»');
  });

  it('says when an app password, a share link or a webhook acted', () => {
    const app = actor({ kind: 'app_password', id: 'p1', name: '박감사', email: 'p@example.com' });
    expect(actorDetail(t, app)).toBe('p@example.com · «audit_actor_app_password»');
    expect(actorName(t, actor({ kind: 'share_link', id: 's1', accountId: null }))).toBe('«audit_actor_share_link»');
    expect(actorName(t, actor({ kind: 'webhook', id: 'w1', accountId: null, label: 'CI 업로드' }))).toBe('CI 업로드');
    expect(actorName(t, actor({ kind: 'system', id: null, accountId: null }))).toBe('«audit_actor_system»');
  });
});
