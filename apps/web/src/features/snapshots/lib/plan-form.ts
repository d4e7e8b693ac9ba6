import {
  MAX_SNAPSHOT_SCHEDULES,
  SNAPSHOT_PASSWORD_MAX_LENGTH,
  SNAPSHOT_PASSWORD_MIN_LENGTH,
  type SnapshotBackupType,
  type SnapshotPlan,
  type SnapshotPlanCreate,
  type SnapshotPlanUpdate,
  type SnapshotScheduleStatus,
} from '@bogwan/contracts';
import { k } from '../../../i18n/keys';

/** Days in the order the week is shown: Monday first (Korean calendars), Sunday last. */
export const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0] as const;

/** A day's short name, by its number (0 Sunday). */
export const DAY_LABELS = [k('day_sun'), k('day_mon'), k('day_tue'), k('day_wed'), k('day_thu'), k('day_fri'), k('day_sat')] as const;

export interface ScheduleDraft {
  /** Kept for schedules that already exist. */
  _id?: string;
  days: number[];
  time: string;
  status: SnapshotScheduleStatus;
}

export interface PlanDraft {
  name: string;
  backupType: SnapshotBackupType;
  allRoots: boolean;
  roots: string[];
  locationKind: 'local' | 's3';
  path: string;
  bucket: string;
  prefix: string;
  password: string;
  passwordConfirm: string;
  schedules: ScheduleDraft[];
}

export function emptyDraft(): PlanDraft {
  return {
    name: '',
    backupType: 'incremental',
    allRoots: true,
    roots: [],
    locationKind: 'local',
    path: '',
    bucket: '',
    prefix: '',
    password: '',
    passwordConfirm: '',
    schedules: [],
  };
}

export function draftOf(plan: SnapshotPlan): PlanDraft {
  return {
    ...emptyDraft(),
    name: plan.name,
    backupType: plan.backupType,
    allRoots: plan.target.all,
    roots: plan.target.roots.map((r) => r._id),
    locationKind: plan.location.kind,
    path: plan.location.kind === 'local' ? plan.location.path : '',
    bucket: plan.location.kind === 's3' ? plan.location.bucket : '',
    prefix: plan.location.kind === 's3' ? plan.location.prefix : '',
    schedules: plan.schedules.map((s) => ({ _id: s._id, days: s.days, time: s.time, status: s.status })),
  };
}

export const newSchedule = (): ScheduleDraft => ({ days: [1, 2, 3, 4, 5], time: '02:00', status: 'active' });

export const canAddSchedule = (draft: PlanDraft) => draft.schedules.length < MAX_SNAPSHOT_SCHEDULES;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * The first rule the draft breaks, as a message key (the same keys the server answers),
 * or null when it can be saved. `creating` adds the location and password rules.
 */
export function draftProblem(draft: PlanDraft, creating: boolean): string | null {
  if (draft.name.trim() === '') return 'snapshot_name_required';
  if (!draft.allRoots && draft.roots.length === 0) return 'snapshot_target_invalid';
  if (draft.schedules.length > MAX_SNAPSHOT_SCHEDULES) return 'snapshot_schedule_limit';
  if (draft.schedules.some((s) => s.days.length === 0 || !TIME.test(s.time))) return 'snapshot_schedule_invalid';
  if (!creating) return null;
  if (draft.locationKind === 'local' ? !draft.path.startsWith('/') : draft.bucket.trim() === '') return 'snapshot_location_invalid';
  if (draft.password.length < SNAPSHOT_PASSWORD_MIN_LENGTH || draft.password.length > SNAPSHOT_PASSWORD_MAX_LENGTH) return 'snapshot_password_rule';
  if (draft.password !== draft.passwordConfirm) return 'rules_password_not_match';
  return null;
}

function schedulesOf(draft: PlanDraft) {
  return draft.schedules.map((s) => ({ ...(s._id ? { _id: s._id } : {}), days: [...s.days].sort(), time: s.time, status: s.status }));
}

export function createBody(draft: PlanDraft): SnapshotPlanCreate {
  return {
    name: draft.name.trim(),
    backupType: draft.backupType,
    target: { all: draft.allRoots, roots: draft.allRoots ? [] : draft.roots },
    location:
      draft.locationKind === 'local' ? { kind: 'local', path: draft.path.trim() } : { kind: 's3', bucket: draft.bucket.trim(), prefix: draft.prefix.trim() },
    password: draft.password,
    schedules: schedulesOf(draft),
  };
}

export function updateBody(draft: PlanDraft): SnapshotPlanUpdate {
  return {
    name: draft.name.trim(),
    backupType: draft.backupType,
    target: { all: draft.allRoots, roots: draft.allRoots ? [] : draft.roots },
    schedules: schedulesOf(draft),
  };
}
