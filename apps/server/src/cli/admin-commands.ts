import { randomInt } from 'node:crypto';
import { PASSWORD_SPECIALS, checkEmail, checkName, checkPassword } from '@bogwan/contracts';
import type { Db } from '../db/index.js';
import { LoginGuardRepo } from '../modules/auth/login-guard.repo.js';
import { hashPassword } from '../modules/auth/passwords.js';
import { SessionsRepo } from '../modules/sessions/sessions.repo.js';
import { newLocalUser } from '../modules/users/new-user.js';
import { UsersRepo } from '../modules/users/users.repo.js';

/** A command's outcome: lines to print, and whether it failed. */
export interface CommandResult {
  ok: boolean;
  lines: string[];
}

const fail = (line: string): CommandResult => ({ ok: false, lines: [line] });

/** A random password that follows the product's rule (16 characters, letters, digits, specials). */
export function generatePassword(): string {
  const letters = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
  const digits = '23456789';
  const all = letters + digits + PASSWORD_SPECIALS;
  const pick = (set: string) => set[randomInt(set.length)]!;
  const chars = [pick(letters), pick(digits), pick(PASSWORD_SPECIALS), ...Array.from({ length: 13 }, () => pick(all))];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/** Operator commands that work on the database directly, for when nobody can sign in. */
export class AdminCommands {
  private readonly users: UsersRepo;
  private readonly sessions: SessionsRepo;
  private readonly guard: LoginGuardRepo;

  constructor(db: Db) {
    this.users = new UsersRepo(db);
    this.sessions = new SessionsRepo(db);
    this.guard = new LoginGuardRepo(db);
  }

  async list(): Promise<CommandResult> {
    const rows = await this.users.list();
    const now = new Date();
    const lines = rows.map((u) => {
      const locked = u.locked_until && new Date(u.locked_until) > now ? ` locked until ${u.locked_until}` : '';
      return `${u.email}\t${u.name}\t${u.role}\t${u.status}${locked}`;
    });
    return { ok: true, lines: lines.length ? lines : ['no accounts'] };
  }

  /** Sets a new password (given or generated), lifts any restriction and ends every session. */
  async resetPassword(email: string, password?: string): Promise<CommandResult> {
    const user = await this.users.findByEmail(email);
    if (!user) return fail(`no account with the email ${email}`);
    const next = password ?? generatePassword();
    const rule = checkPassword(next);
    if (rule) return fail(`the password does not follow the rule (${rule}): 9–20 characters with letters, digits and ${PASSWORD_SPECIALS}`);
    await this.users.setPassword(user.id, await hashPassword(next));
    await this.guard.clearAccount(user.id);
    await this.sessions.revokeAllOfUser(user.id, new Date().toISOString());
    const lines = [`password of ${user.email} reset; every session of the account ended`];
    if (!password) lines.push(`new password: ${next}`);
    if (user.status !== 'ACTIVE') lines.push(`note: the account's status is ${user.status}; run "activate" to let it sign in`);
    return { ok: true, lines };
  }

  async unlock(email: string): Promise<CommandResult> {
    const user = await this.users.findByEmail(email);
    if (!user) return fail(`no account with the email ${email}`);
    await this.guard.clearAccount(user.id);
    return { ok: true, lines: [`sign-in restriction of ${user.email} lifted`] };
  }

  async activate(email: string): Promise<CommandResult> {
    const user = await this.users.findByEmail(email);
    if (!user) return fail(`no account with the email ${email}`);
    await this.users.setStatus(user.id, 'ACTIVE');
    await this.guard.clearAccount(user.id);
    return { ok: true, lines: [`${user.email} is ACTIVE`] };
  }

  /** Creates a MASTER account, for when every administrator is lost. */
  async createMaster(email: string, name: string, password?: string): Promise<CommandResult> {
    const emailRule = checkEmail(email);
    if (emailRule) return fail(`invalid email (${emailRule})`);
    const nameRule = checkName(name);
    if (nameRule) return fail(`invalid name (${nameRule}): Korean or English letters`);
    const normalised = email.trim().toLowerCase();
    if (await this.users.findByEmail(normalised)) return fail(`${normalised} exists already; use reset-password and activate`);
    const next = password ?? generatePassword();
    const rule = checkPassword(next);
    if (rule) return fail(`the password does not follow the rule (${rule})`);
    await this.users.insert(await newLocalUser({ name, email: normalised, password: next, role: 'MASTER' }));
    const lines = [`MASTER account ${normalised} created`];
    if (!password) lines.push(`password: ${next}`);
    return { ok: true, lines };
  }
}
