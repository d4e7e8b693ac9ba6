import { describe, expect, it } from 'vitest';
import { canAddSchedule, createBody, draftProblem, emptyDraft, newSchedule, type PlanDraft } from './plan-form';

const valid = (): PlanDraft => ({ ...emptyDraft(), name: '매일', path: '/backups/a', password: 'secret-pass', passwordConfirm: 'secret-pass' });

describe('snapshot plan form', () => {
  it('accepts a complete draft and builds the call body', () => {
    const draft = { ...valid(), schedules: [{ days: [5, 1], time: '02:30', status: 'active' as const }] };
    expect(draftProblem(draft, true)).toBeNull();
    expect(createBody(draft)).toEqual({
      name: '매일',
      backupType: 'incremental',
      target: { all: true, roots: [] },
      location: { kind: 'local', path: '/backups/a' },
      password: 'secret-pass',
      schedules: [{ days: [1, 5], time: '02:30', status: 'active' }],
    });
  });

  it('names the first broken rule with the server\u2019s message keys', () => {
    expect(draftProblem({ ...valid(), name: '  ' }, true)).toBe('snapshot_name_required');
    expect(draftProblem({ ...valid(), allRoots: false }, true)).toBe('snapshot_target_invalid');
    expect(draftProblem({ ...valid(), schedules: [{ ...newSchedule(), days: [] }] }, true)).toBe('snapshot_schedule_invalid');
    expect(draftProblem({ ...valid(), schedules: [{ ...newSchedule(), time: '' }] }, true)).toBe('snapshot_schedule_invalid');
    expect(draftProblem({ ...valid(), path: 'relative' }, true)).toBe('snapshot_location_invalid');
    expect(draftProblem({ ...valid(), locationKind: 's3' }, true)).toBe('snapshot_location_invalid');
    expect(draftProblem({ ...valid(), password: 'short', passwordConfirm: 'short' }, true)).toBe('snapshot_password_rule');
    expect(draftProblem({ ...valid(), passwordConfirm: 'other-pass' }, true)).toBe('rules_password_not_match');
    // Editing: location and password are fixed, so not checked.
    expect(draftProblem({ ...valid(), path: '', password: '' }, false)).toBeNull();
  });

  it('allows five schedules and no more', () => {
    const five = { ...valid(), schedules: Array.from({ length: 5 }, newSchedule) };
    expect(canAddSchedule(five)).toBe(false);
    expect(canAddSchedule({ ...five, schedules: five.schedules.slice(1) })).toBe(true);
    expect(draftProblem({ ...five, schedules: [...five.schedules, newSchedule()] }, true)).toBe('snapshot_schedule_limit');
  });
});
