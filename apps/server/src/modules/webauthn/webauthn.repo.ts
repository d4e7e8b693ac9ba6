import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { WebauthnChallengesTable, WebauthnCredentialsTable } from '../../db/schema.js';

export type CredentialRow = Selectable<WebauthnCredentialsTable>;
export type WebauthnChallengeRow = Selectable<WebauthnChallengesTable>;

/** SQL for fingerprint (WebAuthn) credentials and their ceremonies' challenges. */
export class WebauthnRepo {
  constructor(private readonly db: Db) {}

  listOfUser(userId: string): Promise<CredentialRow[]> {
    return this.db.selectFrom('webauthn_credentials').selectAll().where('user_id', '=', userId).execute();
  }

  async countOfUser(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('webauthn_credentials')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insertCredential(row: CredentialRow): Promise<void> {
    await this.db.insertInto('webauthn_credentials').values(row).execute();
  }

  async updateCounter(id: string, counter: number): Promise<void> {
    await this.db.updateTable('webauthn_credentials').set({ counter }).where('id', '=', id).execute();
  }

  async insertChallenge(row: WebauthnChallengeRow): Promise<void> {
    await this.db.insertInto('webauthn_challenges').values(row).execute();
  }

  /** Takes a challenge out (single use): answers it and deletes it. */
  async takeChallenge(id: string): Promise<WebauthnChallengeRow | undefined> {
    const row = await this.db.selectFrom('webauthn_challenges').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const deleted = await this.db.deleteFrom('webauthn_challenges').where('id', '=', id).executeTakeFirst();
    return Number(deleted.numDeletedRows) === 1 ? row : undefined;
  }

  async purgeChallengesBefore(before: string): Promise<void> {
    await this.db.deleteFrom('webauthn_challenges').where('expires_at', '<', before).execute();
  }
}
