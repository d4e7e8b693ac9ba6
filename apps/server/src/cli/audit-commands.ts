import type { Db } from '../db/index.js';
import { AuditChainRepo } from '../modules/audit/audit-chain.repo.js';
import { digestFilePath, writeDailyDigests } from '../modules/audit/audit-digests.js';
import { verifyAuditTrail } from '../modules/audit/audit-verify.js';
import type { CommandResult } from './admin-commands.js';

export const AUDIT_USAGE = `Usage: bogwan audit <command>

Audit trail commands; they read the same configuration as the server (BOGWAN_DATA_DIR,
DATABASE_URL, …).

  verify     recompute the chain from the first kept record, check its head and the daily
             digests (database and <data dir>/audit/digests.log); prints OK, or names the
             first broken record (seq, time) and exits with code 1
  digest     write the digests of the finished days not yet digested (the server does it hourly)
`;

/** The `bogwan audit …` commands over a database and the data directory's digest file. */
export class AuditCommands {
  private readonly chain: AuditChainRepo;

  constructor(
    db: Db,
    private readonly dataDir: string,
  ) {
    this.chain = new AuditChainRepo(db);
  }

  async verify(): Promise<CommandResult> {
    const result = await verifyAuditTrail(this.chain, digestFilePath(this.dataDir));
    return { ok: result.ok, lines: result.lines };
  }

  async digest(): Promise<CommandResult> {
    const days = await writeDailyDigests(this.chain, digestFilePath(this.dataDir));
    return { ok: true, lines: [days.length === 0 ? 'no day left to digest' : `digested ${days.join(', ')}`] };
  }
}
