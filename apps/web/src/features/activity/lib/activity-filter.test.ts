import type { Activity } from '@bogwan/contracts';
import { describe, expect, it } from 'vitest';
import { distinct, filterActivities } from './activity-filter';

const at = (service: string, local: string, userId: string | null = 'u1'): Activity => ({
  _id: `${service}-${local}`,
  createdAt: new Date(local).toISOString(),
  service,
  message: 'm',
  userId,
  ip: null,
});

describe('activity filter', () => {
  const items = [at('auth', '2026-03-01T09:00'), at('file', '2026-03-02T23:59'), at('auth', '2026-03-03T00:00', 'u2')];

  it('filters by service and by an inclusive range of local dates', () => {
    expect(filterActivities(items, { service: 'auth', from: '', to: '' })).toHaveLength(2);
    expect(filterActivities(items, { service: '', from: '2026-03-02', to: '2026-03-02' }).map((a) => a.service)).toEqual(['file']);
    expect(filterActivities(items, { service: '', from: '2026-03-02', to: '' })).toHaveLength(2);
    expect(filterActivities(items, { service: 'auth', from: '', to: '2026-03-01' })).toHaveLength(1);
  });

  it('lists distinct values for the choices', () => {
    expect(distinct(items.map((a) => a.userId))).toEqual(['u1', 'u2']);
    expect(distinct(['b', null, 'a', 'b'])).toEqual(['a', 'b']);
  });
});
