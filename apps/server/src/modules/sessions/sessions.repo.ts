import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { RefreshTokensTable, SessionsTable } from '../../db/schema.js';
import type { UserRow } from '../users/users.repo.js';

export type SessionRow = Selectable<SessionsTable>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;

/** SQL for sessions (one per signed-in device) and their rotating refresh tokens. */
export class SessionsRepo {
  constructor(private readonly db: Db) {}

  async create(session: SessionRow, token: RefreshTokenRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('sessions').values(session).execute();
      await trx.insertInto('refresh_tokens').values(token).execute();
    });
  }

  /** The account behind an access token, if its session is still open. */
  async findUserOfOpenSession(userId: string, sessionId: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .innerJoin('sessions', 'sessions.user_id', 'users.id')
      .selectAll('users')
      .where('users.id', '=', userId)
      .where('sessions.id', '=', sessionId)
      .where('sessions.revoked_at', 'is', null)
      .executeTakeFirst();
  }

  /** Which of these sessions are still open, of an active account (the sockets' periodic check). */
  async stillValid(sessionIds: string[]): Promise<Set<string>> {
    const valid = new Set<string>();
    // In slices, to stay under SQLite's limit on bound parameters.
    for (let i = 0; i < sessionIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select('sessions.id')
        .where('sessions.id', 'in', sessionIds.slice(i, i + 500))
        .where('sessions.revoked_at', 'is', null)
        .where('users.status', '=', 'ACTIVE')
        .execute();
      for (const row of rows) valid.add(row.id);
    }
    return valid;
  }

  findToken(tokenHash: string): Promise<(RefreshTokenRow & { user_id: string; revoked_at: string | null; status: string }) | undefined> {
    return this.db
      .selectFrom('refresh_tokens')
      .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('refresh_tokens')
      .select(['sessions.user_id', 'sessions.revoked_at', 'users.status'])
      .where('refresh_tokens.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /**
   * Marks a token used and stores its successor, in one transaction. Answers false when
   * the token had been used already (a concurrent rotation won).
   */
  async rotate(oldHash: string, next: RefreshTokenRow, now: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('refresh_tokens')
        .set({ used_at: now })
        .where('token_hash', '=', oldHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) return false;
      await trx.insertInto('refresh_tokens').values(next).execute();
      await trx.updateTable('sessions').set({ last_used_at: now }).where('id', '=', next.session_id).execute();
      return true;
    });
  }

  async revoke(sessionId: string, now: string): Promise<void> {
    await this.db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
  }

  /** Ends every session of a user, but `keep` if given. */
  async revokeAllOfUser(userId: string, now: string, keep?: string): Promise<void> {
    let query = this.db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
    if (keep) query = query.where('id', '!=', keep);
    await query.execute();
  }

  /** Forgets tokens that expired and sessions revoked more than `before`. */
  async purgeExpired(before: string): Promise<void> {
    await this.db.deleteFrom('refresh_tokens').where('expires_at', '<', before).execute();
    await this.db.deleteFrom('sessions').where('revoked_at', '<', before).execute();
  }
}
