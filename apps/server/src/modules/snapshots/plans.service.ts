import {
  MAX_SNAPSHOT_SCHEDULES,
  type SnapshotPlan,
  type SnapshotPlanCreate,
  type SnapshotPlanUpdate,
  type SnapshotScheduleInput,
  snapshotPlanCreateSchema,
  snapshotPlanUpdateSchema,
} from '@bogwan/contracts';
import { badRequest, conflict, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { UserRow } from '../users/users.repo.js';
import type { SnapshotContext } from './context.js';
import type { NewSchedule, PlanRow } from './plans.repo.js';
import { formatDays } from './schedule-clock.js';
import { toSnapshotPlan } from './snapshots.presenter.js';
import { assertLocalLocationAllowed, backendOf, prepareRepository } from './vault-location.js';

/**
 * Snapshot plans: what is backed up, where, with which password, and when. Creating a
 * plan creates (or opens, with the same password) the repository at its location, so
 * a wrong location or password shows at once rather than at the first scheduled run.
 */
export class PlansService {
  constructor(private readonly ctx: SnapshotContext) {}

  async list(): Promise<SnapshotPlan[]> {
    const plans = await this.ctx.plans.list();
    const ids = plans.map((p) => p.id);
    const [schedules, roots, lastRuns] = await Promise.all([this.ctx.plans.schedulesOf(ids), this.ctx.tree().roots(), this.ctx.jobs.lastRuns(ids)]);
    return plans.map((plan) => toSnapshotPlan(plan, schedules, roots, lastRuns.get(plan.id)));
  }

  async get(id: string): Promise<SnapshotPlan> {
    const plan = await this.find(id);
    const [schedules, roots, lastRuns] = await Promise.all([this.ctx.plans.schedulesOf([id]), this.ctx.tree().roots(), this.ctx.jobs.lastRuns([id])]);
    return toSnapshotPlan(plan, schedules, roots, lastRuns.get(id));
  }

  async find(id: string): Promise<PlanRow> {
    const plan = await this.ctx.plans.find(id);
    if (!plan) throw notFound();
    return plan;
  }

  async create(user: UserRow, input: SnapshotPlanCreate, ip: string): Promise<SnapshotPlan> {
    const body = snapshotPlanCreateSchema.parse(input);
    const roots = await this.checkTarget(user, body.target);
    const stores = this.ctx.stores();
    assertLocalLocationAllowed(body.location, await stores.serverPath(), this.ctx.config.dataDir);
    const backend = backendOf(body.location, this.ctx.config.s3);
    let repositoryId: string;
    try {
      repositoryId = await prepareRepository(backend, body.location, body.password);
    } finally {
      await backend.close().catch(() => {});
    }
    const id = newId();
    const now = new Date().toISOString();
    const plan: PlanRow = {
      id,
      name: body.name,
      backup_type: body.backupType,
      target_all: body.target.all ? 1 : 0,
      target_roots: JSON.stringify(body.target.all ? [] : roots),
      location_kind: body.location.kind,
      location_path: body.location.kind === 'local' ? body.location.path : '',
      location_bucket: body.location.kind === 's3' ? body.location.bucket : '',
      location_prefix: body.location.kind === 's3' ? body.location.prefix : '',
      password_sealed: this.ctx.box.seal(body.password, id),
      created_by: user.id,
      created_at: now,
      updated_at: now,
      repository_id: repositoryId,
    };
    await this.ctx.plans.transaction(async (repo) => {
      await repo.insert(plan);
      await repo.replaceSchedules(id, scheduleRows(body.schedules, new Set(), now));
    });
    const where = body.location.kind === 'local' ? body.location.path : `s3://${body.location.bucket}/${body.location.prefix}`;
    await this.ctx.audit.record({
      action: 'snapshot.plan_change',
      target: { kind: 'snapshot_plan' as const, id: plan.id, label: plan.name },
      params: { change: 'create', location: where, backupType: plan.backup_type },
      ip,
    });
    return this.get(id);
  }

  async update(user: UserRow, id: string, input: SnapshotPlanUpdate, ip: string): Promise<SnapshotPlan> {
    const body = snapshotPlanUpdateSchema.parse(input);
    const plan = await this.find(id);
    const roots = await this.checkTarget(user, body.target);
    const now = new Date().toISOString();
    const existing = new Set((await this.ctx.plans.schedulesOf([id])).map((s) => s.id));
    await this.ctx.plans.transaction(async (repo) => {
      await repo.update(id, {
        name: body.name,
        backup_type: body.backupType,
        target_all: body.target.all ? 1 : 0,
        target_roots: JSON.stringify(body.target.all ? [] : roots),
        updated_at: now,
      });
      await repo.replaceSchedules(id, scheduleRows(body.schedules, existing, now));
    });
    await this.ctx.audit.record({
      action: 'snapshot.plan_change',
      target: { kind: 'snapshot_plan' as const, id: plan.id, label: plan.name },
      params: { change: 'update', ...(plan.name !== body.name ? { name: body.name } : {}), backupType: body.backupType },
      ip,
    });
    return this.get(id);
  }

  /** Deletes a plan and its history; the repository itself stays where it is. */
  async delete(user: UserRow, id: string, ip: string): Promise<void> {
    const plan = await this.find(id);
    const held = await this.ctx.jobs.heldOperation();
    if (held) {
      const run = held.kind === 'snapshot' ? await this.ctx.jobs.findRun(held.ref_id) : undefined;
      const restore = held.kind === 'restore' ? await this.ctx.jobs.findRestore(held.ref_id) : undefined;
      const restoreRun = restore ? await this.ctx.jobs.findRun(restore.run_id) : undefined;
      if (run?.plan_id === id || restoreRun?.plan_id === id) throw conflict('snapshot_operation_in_progress');
    }
    await this.ctx.plans.delete(id);
    await this.ctx.audit.record({
      action: 'snapshot.plan_change',
      target: { kind: 'snapshot_plan' as const, id: plan.id, label: plan.name },
      params: { change: 'delete' },
      ip,
    });
  }

  async setScheduleStatus(user: UserRow, scheduleId: string, status: 'active' | 'paused', ip: string): Promise<SnapshotPlan> {
    const schedule = await this.ctx.plans.setScheduleStatus(scheduleId, status);
    if (!schedule) throw notFound();
    await this.ctx.audit.record({
      action: 'snapshot.plan_change',
      target: { kind: 'snapshot_plan', id: schedule.plan_id },
      params: { change: 'schedule', schedule: schedule.time, status },
      ip,
    });
    return this.get(schedule.plan_id);
  }

  /** The chosen root folders' ids; each must exist and be readable by the caller. */
  private async checkTarget(user: UserRow, target: { all: boolean; roots: string[] }): Promise<string[]> {
    if (target.all) return [];
    const ids = [...new Set(target.roots)];
    if (ids.length === 0) throw badRequest('snapshot_target_invalid');
    const roots = new Map((await this.ctx.tree().roots()).map((r) => [r.id, r]));
    for (const id of ids) {
      const root = roots.get(id);
      if (!root) throw badRequest('snapshot_target_invalid');
      await this.ctx.access().require(user, `/${root.name}`, 'READ');
    }
    return ids;
  }
}

function scheduleRows(schedules: SnapshotScheduleInput[], existing: Set<string>, now: string): (NewSchedule & { keep: boolean })[] {
  // The contract already says so; the service keeps the rule even for callers that skip it.
  if (schedules.length > MAX_SNAPSHOT_SCHEDULES) throw badRequest('snapshot_schedule_limit');
  return schedules.map((s, position) => {
    const keep = s._id !== undefined && existing.has(s._id);
    return {
      id: keep ? s._id! : newId(),
      days: formatDays(s.days),
      time: s.time,
      status: s.status ?? 'active',
      position,
      created_at: now,
      keep,
    };
  });
}
