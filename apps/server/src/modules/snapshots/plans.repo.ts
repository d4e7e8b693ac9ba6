import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, SnapshotPlansTable, SnapshotSchedulesTable } from '../../db/schema.js';

export type PlanRow = Selectable<SnapshotPlansTable>;
export type ScheduleRow = Selectable<SnapshotSchedulesTable>;
export type NewSchedule = Omit<Insertable<SnapshotSchedulesTable>, 'plan_id'>;

/** A schedule with the plan it belongs to (for the ticker). */
export type DueCandidate = ScheduleRow & { plan_name: string };

/** SQL for snapshot plans and their schedules, and the slots that make a schedule fire once. */
export class PlansRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Runs `fn` in one transaction (or in the current one). */
  transaction<T>(fn: (repo: PlansRepo) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return fn(this);
    return this.db.transaction().execute((trx) => fn(new PlansRepo(trx)));
  }

  list(): Promise<PlanRow[]> {
    return this.db.selectFrom('snapshot_plans').selectAll().orderBy('name').orderBy('id').execute();
  }

  find(id: string): Promise<PlanRow | undefined> {
    return this.db.selectFrom('snapshot_plans').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(plan: PlanRow): Promise<void> {
    await this.db.insertInto('snapshot_plans').values(plan).execute();
  }

  async update(id: string, changes: Partial<Omit<PlanRow, 'id'>>): Promise<void> {
    await this.db.updateTable('snapshot_plans').set(changes).where('id', '=', id).execute();
  }

  /** Records the repository id of a plan made before it was recorded (the first process to open it wins). */
  async recordRepositoryId(id: string, repositoryId: string): Promise<void> {
    await this.db.updateTable('snapshot_plans').set({ repository_id: repositoryId }).where('id', '=', id).where('repository_id', 'is', null).execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('snapshot_plans').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  schedulesOf(planIds: string[]): Promise<ScheduleRow[]> {
    if (planIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('snapshot_schedules').selectAll().where('plan_id', 'in', planIds).orderBy('position').execute();
  }

  /**
   * Makes the plan's schedules exactly `schedules`, in order: rows whose id is kept are
   * updated in place (their claimed slots stay, so an edit cannot make a minute fire
   * twice), the others deleted or inserted.
   */
  async replaceSchedules(planId: string, schedules: (NewSchedule & { keep: boolean })[]): Promise<void> {
    const current = await this.schedulesOf([planId]);
    const kept = new Set(schedules.filter((s) => s.keep).map((s) => s.id));
    const gone = current.filter((s) => !kept.has(s.id)).map((s) => s.id);
    if (gone.length > 0) await this.db.deleteFrom('snapshot_schedules').where('id', 'in', gone).execute();
    for (const { keep, ...schedule } of schedules) {
      if (keep) {
        await this.db
          .updateTable('snapshot_schedules')
          .set({ days: schedule.days, time: schedule.time, status: schedule.status, position: schedule.position })
          .where('id', '=', schedule.id)
          .where('plan_id', '=', planId)
          .execute();
      } else {
        await this.db
          .insertInto('snapshot_schedules')
          .values({ ...schedule, plan_id: planId })
          .execute();
      }
    }
  }

  async setScheduleStatus(id: string, status: string): Promise<ScheduleRow | undefined> {
    await this.db.updateTable('snapshot_schedules').set({ status }).where('id', '=', id).execute();
    return this.db.selectFrom('snapshot_schedules').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Every active schedule with its plan's name. */
  activeSchedules(): Promise<DueCandidate[]> {
    return this.db
      .selectFrom('snapshot_schedules as s')
      .innerJoin('snapshot_plans as p', 'p.id', 's.plan_id')
      .selectAll('s')
      .select('p.name as plan_name')
      .where('s.status', '=', 'active')
      .execute();
  }

  /**
   * Claims one due minute of a schedule. True for exactly one caller across every
   * server process: the primary key (schedule, slot) lets only the first insert in.
   */
  async claimSlot(scheduleId: string, slot: string): Promise<boolean> {
    const result = await this.db
      .insertInto('snapshot_slots')
      .values({ schedule_id: scheduleId, slot, created_at: new Date().toISOString() })
      .onConflict((oc) => oc.columns(['schedule_id', 'slot']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /** Claimed slots older than `before` are no longer needed to prevent a second run. */
  async purgeSlotsBefore(before: string): Promise<void> {
    await this.db.deleteFrom('snapshot_slots').where('created_at', '<', before).execute();
  }
}
