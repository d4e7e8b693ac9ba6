import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import { SYSTEM_ACTOR } from '../audit/audit-context.js';
import { type SnapshotContext, planTarget } from './context.js';
import { dueSlots, parseDays } from './schedule-clock.js';
import type { SnapshotRunner } from './snapshot-runner.js';

const TICK_MS = 20_000;
const PURGE_EVERY_MS = 60 * 60_000;
/** Claimed slots are kept a week: far longer than the look-back that could fire them again. */
const KEEP_SLOTS_MS = 7 * 86_400_000;

/**
 * Fires schedules in the server's time zone. Every process ticks; each due minute of a
 * schedule is claimed by one insert that only one process wins, so a schedule runs
 * once however many processes share the database. A due run that meets another
 * operation is recorded as a failed run (the history shows it was not taken).
 */
export class SnapshotScheduler {
  private lastPurge = 0;

  constructor(
    private readonly ctx: SnapshotContext,
    private readonly runner: SnapshotRunner,
  ) {}

  /** Starts the ticker; answers the function that stops it. */
  start(): () => void {
    const timer = setInterval(() => {
      void this.tick().catch((error) => this.ctx.log.error({ err: error }, 'snapshot schedule tick failed'));
    }, TICK_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Starts the runs due at `now`; answers how many this process started. */
  async tick(now = new Date()): Promise<number> {
    await this.ctx.lock.takeOverStale();
    if (now.getTime() - this.lastPurge > PURGE_EVERY_MS) {
      this.lastPurge = now.getTime();
      await this.ctx.plans.purgeSlotsBefore(new Date(now.getTime() - KEEP_SLOTS_MS).toISOString());
    }
    let started = 0;
    for (const schedule of await this.ctx.plans.activeSchedules()) {
      for (const slot of dueSlots({ days: parseDays(schedule.days), time: schedule.time }, now)) {
        if (!(await this.ctx.plans.claimSlot(schedule.id, slot))) continue;
        const plan = await this.ctx.plans.find(schedule.plan_id);
        if (!plan) continue;
        try {
          await this.runner.start(plan, 'schedule', null);
          started++;
        } catch (error) {
          const key = error instanceof AppError ? error.messageKey : 'request_error_message';
          if (!(error instanceof AppError)) this.ctx.log.error({ err: error, plan: plan.id }, 'scheduled snapshot not started');
          const at = new Date().toISOString();
          await this.ctx.jobs.insertRun({
            id: newId(),
            plan_id: plan.id,
            status: 'failure',
            trigger: 'schedule',
            backup_type: plan.backup_type,
            task_id: null,
            vault_snapshot_id: null,
            files: 0,
            size: 0,
            bytes_added: 0,
            error: key,
            started_by: null,
            started_at: at,
            finished_at: at,
          });
          await this.ctx.audit.record({
            action: 'snapshot.run',
            actor: SYSTEM_ACTOR,
            target: planTarget(plan),
            params: { status: 'not_started', schedule: slot, error: key },
          });
        }
      }
    }
    return started;
  }
}
