import { sql } from 'kysely';
import type { Db } from '../../db/index.js';

/**
 * Audit actions the transfer chart counts, by kind. Downloads are downloads only (a file, a
 * zip, a version, a share link's file); a preview is its own figure. Refused attempts and the
 * old activity log's free-text rows (`legacy`, where a preview was written as a download) are
 * not counted.
 */
export const TRANSFER_ACTIONS = {
  upload: ['file.upload'],
  download: ['file.download', 'file.download_zip', 'file.download_version', 'share.download'],
  preview: ['file.view'],
} as const;
export type TransferKind = keyof typeof TRANSFER_ACTIONS;

const KIND_OF_ACTION = new Map<string, TransferKind>(
  (Object.entries(TRANSFER_ACTIONS) as [TransferKind, readonly string[]][]).flatMap(([kind, actions]) => actions.map((a) => [a, kind] as const)),
);

export interface AccountCount {
  status: string;
  role: string;
  n: number;
}

export interface TransferHour {
  /** UTC hour as `YYYY-MM-DDTHH`. */
  hour: string;
  kind: TransferKind;
  n: number;
}

export interface RootFigures {
  name: string;
  backend: string;
  usage_bytes: number;
  version_bytes: number;
  trash_bytes: number;
  volume_limit: number | null;
  trash_key: string;
}

export interface ActiveTask {
  id: string;
  type: string;
  name: string;
  status: string;
  progress: number | null;
  updated_at: string;
  owner_name: string | null;
  owner_email: string | null;
}

/** Read-only figures for the dashboard, each one query over its table. */
export class DashboardRepo {
  constructor(private readonly db: Db) {}

  async accounts(): Promise<AccountCount[]> {
    const rows = await this.db
      .selectFrom('users')
      .select(['status', 'role', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy(['status', 'role'])
      .execute();
    return rows.map((r) => ({ status: r.status, role: r.role, n: Number(r.n) }));
  }

  /**
   * Uploads, downloads and previews allowed since `since` (ISO), counted per UTC hour from
   * the audit trail. The window's first record is found on the `at` index; from its seq on,
   * the (action, seq) index reads only the transfer actions, not every record of the month.
   */
  async transfersByHour(since: string): Promise<TransferHour[]> {
    const first = await sql<{ seq: number | string }>`select seq from audit_records where at >= ${since} order by at limit 1`.execute(this.db);
    const from = first.rows[0]?.seq;
    if (from === undefined) return [];
    const actions = [...KIND_OF_ACTION.keys()];
    const result = await sql<{ hour: string; action: string; n: number | string }>`
      select substr(at, 1, 13) as hour, action, count(*) as n
      from audit_records
      where action in (${sql.join(actions)}) and seq >= ${from} and at >= ${since} and outcome = 'allowed'
      group by 1, 2`.execute(this.db);
    return result.rows.flatMap((r) => {
      const kind = KIND_OF_ACTION.get(r.action);
      return kind ? [{ hour: r.hour, kind, n: Number(r.n) }] : [];
    });
  }

  /** Every root folder (trashed ones too: their bytes are still stored). */
  roots(): Promise<RootFigures[]> {
    return this.db
      .selectFrom('nodes')
      .select(['name', 'backend', 'usage_bytes', 'version_bytes', 'trash_bytes', 'volume_limit', 'trash_key'])
      .where('parent_id', '=', '')
      .orderBy('name')
      .execute();
  }

  /** Pending and running tasks of every user, most recently updated first, with their owner. */
  async activeTasks(limit: number): Promise<{ rows: ActiveTask[]; total: number }> {
    const base = this.db.selectFrom('tasks').where('tasks.status', 'in', ['pending', 'running']);
    const [rows, count] = await Promise.all([
      base
        .leftJoin('users', 'users.id', 'tasks.owner_id')
        .select([
          'tasks.id',
          'tasks.type',
          'tasks.name',
          'tasks.status',
          'tasks.progress',
          'tasks.updated_at',
          'users.name as owner_name',
          'users.email as owner_email',
        ])
        .orderBy('tasks.updated_at', 'desc')
        .limit(limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }
}
