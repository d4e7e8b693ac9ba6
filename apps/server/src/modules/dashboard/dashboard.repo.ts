import { sql } from 'kysely';
import type { Db } from '../../db/index.js';

/** Messages with which the transfer side records a finished upload or download (modules/transfer). */
export const UPLOAD_EVENT_PREFIX = 'Uploaded ';
export const DOWNLOAD_EVENT_PREFIX = 'Downloaded ';

export interface AccountCount {
  status: string;
  role: string;
  n: number;
}

export interface TransferHour {
  /** UTC hour as `YYYY-MM-DDTHH`. */
  hour: string;
  kind: 'upload' | 'download';
  n: number;
}

export interface RootFigures {
  name: string;
  backend: string;
  usage_bytes: number;
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
   * Finished uploads and downloads since `since` (ISO), counted per UTC hour. Grouped by
   * position: PostgreSQL would not see two bound copies of the same pattern as one expression.
   */
  async transfersByHour(since: string): Promise<TransferHour[]> {
    const upload = `${UPLOAD_EVENT_PREFIX}%`;
    const download = `${DOWNLOAD_EVENT_PREFIX}%`;
    const result = await sql<{ hour: string; kind: 'upload' | 'download'; n: number | string }>`
      select substr(created_at, 1, 13) as hour,
             case when message like ${upload} then 'upload' else 'download' end as kind,
             count(*) as n
      from events
      where service = 'file' and created_at >= ${since}
        and (message like ${upload} or message like ${download})
      group by 1, 2`.execute(this.db);
    return result.rows.map((r) => ({ hour: r.hour, kind: r.kind, n: Number(r.n) }));
  }

  /** Every root folder (trashed ones too: their bytes are still stored). */
  roots(): Promise<RootFigures[]> {
    return this.db
      .selectFrom('nodes')
      .select(['name', 'backend', 'usage_bytes', 'volume_limit', 'trash_key'])
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
