import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, RestoresTable, SnapshotRunsTable } from '../../db/schema.js';

export type RunRow = Selectable<SnapshotRunsTable>;
export type RestoreRow = Selectable<RestoresTable>;
/** A run with its plan's name and its task's progress. */
export type ListedRun = RunRow & { plan_name: string; progress: number | null };
/** A restore with its run's plan name and time, and its task's progress. */
export type ListedRestore = RestoreRow & { plan_name: string; run_started_at: string; progress: number | null };

const OPERATION_ROW = 'operation';

/** The operation row as stored: what runs, and who holds it. */
export interface OperationRow {
  kind: string;
  ref_id: string;
  holder: string;
  heartbeat_at: string;
}

/** SQL for snapshot runs, restores and the one-operation-at-a-time row. */
export class JobsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insertRun(row: RunRow): Promise<void> {
    await this.db.insertInto('snapshot_runs').values(row).execute();
  }

  async updateRun(id: string, changes: Partial<Omit<RunRow, 'id'>>): Promise<void> {
    await this.db.updateTable('snapshot_runs').set(changes).where('id', '=', id).execute();
  }

  findRun(id: string): Promise<ListedRun | undefined> {
    return this.runs().where('r.id', '=', id).executeTakeFirst();
  }

  async listRuns(filter: { planId?: string; completed?: boolean; skip: number; limit: number }): Promise<{ rows: ListedRun[]; total: number }> {
    let query = this.runs();
    let count = this.db.selectFrom('snapshot_runs as r').select((eb) => eb.fn.countAll<number>().as('n'));
    if (filter.planId) {
      query = query.where('r.plan_id', '=', filter.planId);
      count = count.where('r.plan_id', '=', filter.planId);
    }
    if (filter.completed) {
      query = query.where('r.status', '=', 'completed');
      count = count.where('r.status', '=', 'completed');
    }
    const rows = await query.orderBy('r.started_at', 'desc').orderBy('r.id', 'desc').offset(filter.skip).limit(filter.limit).execute();
    const total = Number((await count.executeTakeFirst())?.n ?? 0);
    return { rows, total };
  }

  /** The newest run of each plan. */
  async lastRuns(planIds: string[]): Promise<Map<string, ListedRun>> {
    const out = new Map<string, ListedRun>();
    for (const planId of planIds) {
      const row = await this.runs().where('r.plan_id', '=', planId).orderBy('r.started_at', 'desc').orderBy('r.id', 'desc').executeTakeFirst();
      if (row) out.set(planId, row);
    }
    return out;
  }

  /** The newest completed run of a plan: the parent of an incremental backup. */
  latestCompleted(planId: string): Promise<RunRow | undefined> {
    return this.db
      .selectFrom('snapshot_runs')
      .selectAll()
      .where('plan_id', '=', planId)
      .where('status', '=', 'completed')
      .where('vault_snapshot_id', 'is not', null)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  async insertRestore(row: RestoreRow): Promise<void> {
    await this.db.insertInto('restores').values(row).execute();
  }

  async updateRestore(id: string, changes: Partial<Omit<RestoreRow, 'id'>>): Promise<void> {
    await this.db.updateTable('restores').set(changes).where('id', '=', id).execute();
  }

  findRestore(id: string): Promise<ListedRestore | undefined> {
    return this.restores().where('x.id', '=', id).executeTakeFirst();
  }

  async listRestores(skip: number, limit: number): Promise<{ rows: ListedRestore[]; total: number }> {
    const rows = await this.restores().orderBy('x.started_at', 'desc').orderBy('x.id', 'desc').offset(skip).limit(limit).execute();
    const total = Number(
      (
        await this.db
          .selectFrom('restores')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst()
      )?.n ?? 0,
    );
    return { rows, total };
  }

  /** Runs and restores still marked running (their process may have died). */
  async markInterrupted(kind: 'snapshot' | 'restore', id: string, error: string, now: string): Promise<void> {
    const table = kind === 'snapshot' ? 'snapshot_runs' : 'restores';
    await this.db.updateTable(table).set({ status: 'failure', error, finished_at: now }).where('id', '=', id).where('status', '=', 'running').execute();
  }

  /** Takes the operation row when it is free. */
  async tryHold(row: OperationRow): Promise<boolean> {
    const result = await this.db
      .insertInto('snapshot_operation')
      .values({ id: OPERATION_ROW, ...row })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  heldOperation(): Promise<OperationRow | undefined> {
    return this.db.selectFrom('snapshot_operation').select(['kind', 'ref_id', 'holder', 'heartbeat_at']).where('id', '=', OPERATION_ROW).executeTakeFirst();
  }

  /** Takes over a stale row: only when it is still exactly what the caller saw (compare and set). */
  async takeOver(seen: OperationRow, next: OperationRow): Promise<boolean> {
    const result = await this.db
      .updateTable('snapshot_operation')
      .set(next)
      .where('id', '=', OPERATION_ROW)
      .where('holder', '=', seen.holder)
      .where('heartbeat_at', '=', seen.heartbeat_at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async heartbeat(holder: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('snapshot_operation')
      .set({ heartbeat_at: at })
      .where('id', '=', OPERATION_ROW)
      .where('holder', '=', holder)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async release(holder: string): Promise<void> {
    await this.db.deleteFrom('snapshot_operation').where('id', '=', OPERATION_ROW).where('holder', '=', holder).execute();
  }

  /** The task row's status (the panel's cancel may come from another process). */
  async taskStatus(taskId: string): Promise<string | undefined> {
    return (await this.db.selectFrom('tasks').select('status').where('id', '=', taskId).executeTakeFirst())?.status;
  }

  /** The account that owns a job's task: the given one while it exists, else the first MASTER. */
  async taskOwner(preferred: string | null): Promise<string | undefined> {
    if (preferred) {
      const user = await this.db.selectFrom('users').select('id').where('id', '=', preferred).executeTakeFirst();
      if (user) return user.id;
    }
    const master = await this.db.selectFrom('users').select('id').where('role', '=', 'MASTER').orderBy('created_at').executeTakeFirst();
    return master?.id;
  }

  /** Emails of accounts by id (the catalog shows owners by email). */
  async emails(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('users').select(['id', 'email']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.email]));
  }

  /**
   * Each folder's count of changes to its children (table `tree_changes`, kept by triggers
   * on `nodes`); a folder missing from the map has 0.
   */
  async folderChanges(): Promise<Map<string, number>> {
    const { rows } = await sql<{ folder_id: string; changes: number | string }>`select folder_id, changes from tree_changes`.execute(this.db);
    return new Map(rows.map((r) => [r.folder_id, Number(r.changes)]));
  }

  /** Ids of accounts that still exist, by email. */
  async idsByEmail(emails: string[]): Promise<Map<string, string>> {
    if (emails.length === 0) return new Map();
    const rows = await this.db.selectFrom('users').select(['id', 'email']).where('email', 'in', emails).execute();
    return new Map(rows.map((r) => [r.email, r.id]));
  }

  private runs() {
    return this.db
      .selectFrom('snapshot_runs as r')
      .innerJoin('snapshot_plans as p', 'p.id', 'r.plan_id')
      .leftJoin('tasks as t', 't.id', 'r.task_id')
      .selectAll('r')
      .select(['p.name as plan_name', 't.progress as progress']);
  }

  private restores() {
    return this.db
      .selectFrom('restores as x')
      .innerJoin('snapshot_runs as r', 'r.id', 'x.run_id')
      .innerJoin('snapshot_plans as p', 'p.id', 'r.plan_id')
      .leftJoin('tasks as t', 't.id', 'x.task_id')
      .selectAll('x')
      .select(['p.name as plan_name', 'r.started_at as run_started_at', 't.progress as progress']);
  }
}
