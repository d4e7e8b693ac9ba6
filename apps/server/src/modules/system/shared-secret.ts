import { createHmac } from 'node:crypto';
import type { Db } from '../../db/index.js';
import { SettingsRepo } from '../settings/settings.repo.js';

/** The settings key holding a check value of the installation's server secret (never the secret). */
export const SECRET_CHECK_SETTING = 'server.secret_check';

/** A process started with another secret than the installation's. */
export class SecretMismatchError extends Error {
  constructor() {
    super(
      'This server process has another secret than the other processes of this installation (the one its database ' +
        'was first started with). Access tokens signed by one would be refused by the other, and secrets sealed by one ' +
        'unreadable to the other. Set BOGWAN_SECRET to the same value for every process (a process without it uses ' +
        'BOGWAN_DATA_DIR/secret.key, which is its own).',
    );
    this.name = 'SecretMismatchError';
  }
}

/** Shows which secret a process holds without revealing it. */
function checkValue(secret: string): string {
  return createHmac('sha256', secret).update('bogwan server secret check').digest('base64url');
}

/**
 * Refuses to go on with a server secret other than the installation's: the first process
 * records a check value of its secret (insert-or-keep, so processes starting together agree
 * on one), and every later start compares its own against it.
 */
export async function verifySharedSecret(db: Db, secret: string): Promise<void> {
  const mine = checkValue(secret);
  const recorded = await new SettingsRepo(db).getOrInsert(SECRET_CHECK_SETTING, mine);
  if (recorded !== mine) throw new SecretMismatchError();
}
