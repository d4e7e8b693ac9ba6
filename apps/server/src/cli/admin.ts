import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { migrateToLatest, openDb } from '../db/index.js';
import { AdminCommands, type CommandResult } from './admin-commands.js';
import { AUDIT_USAGE, AuditCommands } from './audit-commands.js';

const USAGE = `Usage: bogwan admin <command> [options]

Operator commands; they read the same configuration as the server (BOGWAN_DATA_DIR,
DATABASE_URL, …) and work directly on its database, so they help when nobody can sign in.

  list                                         list every account (email, name, role, status)
  reset-password --email E [--password P]      set a new password (generated when omitted),
                                               lift the sign-in restriction, end all sessions
  unlock --email E                             lift the sign-in restriction (after 5 failures)
  activate --email E                           set the account's status to ACTIVE
  create-master --email E --name N [--password P]
                                               create a MASTER account (password generated
                                               when omitted)

bogwan audit verify | digest: the audit trail (bogwan audit help)
`;

/** Runs `bogwan admin …` with the given arguments; answers the exit code. */
export async function runAdmin(argv: string[]): Promise<number> {
  const [scope, command, ...rest] = argv;
  if (scope === 'audit') return runAudit(command);
  if (scope !== 'admin' || !command || command === '--help' || command === 'help') {
    process.stdout.write(USAGE);
    return scope === 'admin' && (command === '--help' || command === 'help') ? 0 : 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: { email: { type: 'string' }, name: { type: 'string' }, password: { type: 'string' } },
    strict: true,
  });
  const need = (key: 'email' | 'name'): string => {
    const v = values[key];
    if (!v) throw new UsageError(`--${key} is required`);
    return v;
  };

  const config = loadConfig();
  const db = openDb(config.database);
  try {
    await migrateToLatest(db);
    const admin = new AdminCommands(db);
    let result: CommandResult;
    switch (command) {
      case 'list':
        result = await admin.list();
        break;
      case 'reset-password':
        result = await admin.resetPassword(need('email'), values.password);
        break;
      case 'unlock':
        result = await admin.unlock(need('email'));
        break;
      case 'activate':
        result = await admin.activate(need('email'));
        break;
      case 'create-master':
        result = await admin.createMaster(need('email'), need('name'), values.password);
        break;
      default:
        throw new UsageError(`unknown command: ${command}`);
    }
    (result.ok ? process.stdout : process.stderr).write(`${result.lines.join('\n')}\n`);
    return result.ok ? 0 : 1;
  } finally {
    await db.destroy();
  }
}

/** Runs `bogwan audit <command>`; answers the exit code (1: the trail is broken). */
async function runAudit(command: string | undefined): Promise<number> {
  if (command !== 'verify' && command !== 'digest') {
    process.stdout.write(AUDIT_USAGE);
    return command === 'help' || command === '--help' ? 0 : 2;
  }
  const config = loadConfig();
  const db = openDb(config.database);
  try {
    await migrateToLatest(db);
    const audit = new AuditCommands(db, config.dataDir);
    const result = command === 'verify' ? await audit.verify() : await audit.digest();
    (result.ok ? process.stdout : process.stderr).write(`${result.lines.join('\n')}\n`);
    return result.ok ? 0 : 1;
  } finally {
    await db.destroy();
  }
}

class UsageError extends Error {}

runAdmin(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ConfigError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
      process.exit(2);
    }
    process.stderr.write(`bogwan admin failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
