/**
 * App passwords: named secrets an account makes for WebDAV clients (rclone, Explorer,
 * Finder, office apps), shown once, stored as a keyed hash, revoked one by one.
 *
 * The authenticator the WebDAV module calls, on `app.appPasswords` (kept stable):
 *
 *   verifyBasic(authorization: string | undefined, client: { ip: string; userAgent?: string }):
 *     Promise<{ user: UserRow; appPasswordId: string } | { refused: 'throttled' | 'invalid' }>
 *
 * - `authorization` is the raw `Authorization` header: `Basic base64(email:app password)`.
 *   No header, or another scheme: `invalid` at once, nothing counted (a client's first
 *   request carries none; answer 401 with `WWW-Authenticate: Basic realm="Bogwan"`).
 * - The account password is never accepted (it is not checked at all), so a second factor
 *   cannot be bypassed over WebDAV.
 * - While the client address is throttled (the sign-in address limit shared with password
 *   sign-in), every attempt is `throttled` without checking anything (answer 429).
 * - Wrong credentials count one failure of the address; the one that fills it is `throttled`.
 * - A right app password of an account that is not ACTIVE (blocked, pending), or that must
 *   replace an initial password, is `invalid` (not counted: its holder is not guessing).
 *   Revoked passwords and deleted accounts have no row: `invalid`. Checked on every call.
 * - A success records last use (time, address) at most once a minute per password.
 */
import { APP_PASSWORDS_PER_ACCOUNT, type AppPassword, type AppPasswordCreated } from '@bogwan/contracts';
import { conflict, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Reauthentication } from '../auth/reauth.js';
import { auditContext } from '../audit/audit-context.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { RateLimit } from '../limits/rate-limit.js';
import type { UserRow, UsersRepo } from '../users/users.repo.js';
import { AppPasswordHasher, generateAppPassword, lookupOf, normalizeAppPassword } from './app-password-secret.js';
import type { AppPasswordRow, AppPasswordsRepo } from './app-passwords.repo.js';

export type BasicVerdict = { user: UserRow; appPasswordId: string } | { refused: 'throttled' | 'invalid' };
export interface BasicClient {
  ip: string;
  userAgent?: string;
}

/** Uses of one password closer together than this are not written again. */
const LAST_USE_RESOLUTION_MS = 60_000;
/** A row id to hash against when the account is unknown, so that case takes the same work. */
const NO_ROW = '00000000-0000-7000-8000-000000000000';

export interface AppPasswordsDeps {
  repo: AppPasswordsRepo;
  users: UsersRepo;
  audit: AuditRecorder;
  reauth: Reauthentication;
  /** The 'sign-in-address' limit of password sign-in: one count per client address for both. */
  signInAddresses: RateLimit;
  serverSecret: string;
}

export class AppPasswordsService {
  private readonly hasher: AppPasswordHasher;

  constructor(private readonly deps: AppPasswordsDeps) {
    this.hasher = new AppPasswordHasher(deps.serverSecret);
  }

  /** Makes an app password after the current password is confirmed; the answer is the only time it is shown. */
  async create(user: UserRow, name: string, currentPassword: string, ip: string): Promise<AppPasswordCreated> {
    await this.deps.reauth.confirm(user, currentPassword, ip, 'create an app password');
    const password = generateAppPassword();
    const normalized = normalizeAppPassword(password)!;
    const id = newId();
    const row: AppPasswordRow = {
      id,
      user_id: user.id,
      name: name.normalize('NFC'),
      lookup: lookupOf(normalized),
      hash: this.hasher.hash(id, normalized),
      created_at: new Date().toISOString(),
      last_used_at: null,
      last_used_ip: null,
    };
    const refused = await this.deps.repo.insertUnderCap(row, APP_PASSWORDS_PER_ACCOUNT);
    if (refused === 'limit') throw conflict('app_password_limit_reached');
    if (refused === 'name_taken') throw conflict('app_password_name_exists');
    await this.deps.audit.record({ action: 'auth.app_password_create', target: { kind: 'app_password', id, label: row.name }, ip });
    return { _id: id, name: row.name, password };
  }

  async list(user: UserRow): Promise<AppPassword[]> {
    return (await this.deps.repo.listOfUser(user.id)).map(toAppPasswordResponse);
  }

  /** Revokes one of the account's own app passwords (404 for any other id); it stops working at once. */
  async revoke(user: UserRow, id: string, ip: string): Promise<void> {
    if (!(await this.deps.repo.deleteOfUser(user.id, id))) throw notFound();
    await this.deps.audit.record({ action: 'auth.app_password_revoke', target: { kind: 'app_password', id }, ip });
  }

  /** HTTP Basic (account e-mail + app password) → the ACTIVE account, or why not; see the top of this file. */
  async verifyBasic(authorization: string | undefined, client: BasicClient): Promise<BasicVerdict> {
    const credentials = parseBasic(authorization);
    if (!credentials) return { refused: 'invalid' };
    const { signInAddresses } = this.deps;
    if (await signInAddresses.blocked(client.ip)) return { refused: 'throttled' };
    const match = await this.findMatch(credentials.email, credentials.password);
    if (!match || match.user.status !== 'ACTIVE' || match.user.must_change_password === 1) {
      // A wrong app password (or one of an account that may not sign in) is a failed sign-in of the audit trail.
      const email = credentials.email.slice(0, 254);
      const actor = { kind: 'app_password' as const, id: match?.row.id ?? null, accountId: match?.user.id ?? null, label: email };
      await this.deps.audit.record({
        action: 'auth.sign_in_failed',
        outcome: 'refused',
        reason: 'login_failure',
        actor,
        params: { method: 'app_password', email },
        ip: client.ip,
      });
      if (match) return { refused: 'invalid' };
      return (await signInAddresses.hit(client.ip)) ? { refused: 'invalid' } : { refused: 'throttled' };
    }
    const { user, row } = match;
    // The rest of the request acts as this app password (on behalf of its account).
    auditContext.setActor({ kind: 'app_password', id: row.id, accountId: user.id, label: `${user.name} <${user.email}> (${row.name})` });
    await this.recordUse(row, client.ip);
    return { user, appPasswordId: row.id };
  }

  /** The account and app password the credentials prove, or undefined; the same work whether or not the account exists. */
  private async findMatch(email: string, typed: string): Promise<{ user: UserRow; row: AppPasswordRow } | undefined> {
    const normalized = normalizeAppPassword(typed);
    const user = email ? await this.deps.users.findByEmail(email) : undefined;
    if (!normalized) return undefined;
    const rows = user ? await this.deps.repo.candidates(user.id, lookupOf(normalized)) : [];
    if (rows.length === 0) {
      this.hasher.matches(NO_ROW, normalized, '00'.repeat(32));
      return undefined;
    }
    const row = rows.find((candidate) => this.hasher.matches(candidate.id, normalized, candidate.hash));
    return row && user ? { user, row } : undefined;
  }

  private async recordUse(row: AppPasswordRow, ip: string): Promise<void> {
    const now = Date.now();
    if (row.last_used_at && now - Date.parse(row.last_used_at) < LAST_USE_RESOLUTION_MS) return;
    await this.deps.repo.recordUse(row.id, new Date(now).toISOString(), ip, new Date(now - LAST_USE_RESOLUTION_MS).toISOString());
  }
}

/** `Basic base64(email:password)` → its parts (the e-mail trimmed and lower-cased), or undefined. */
export function parseBasic(authorization: string | undefined): { email: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]{1,4096})\s*$/i.exec(authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { email: decoded.slice(0, colon).trim().toLowerCase(), password: decoded.slice(colon + 1) };
}

export function toAppPasswordResponse(row: AppPasswordRow): AppPassword {
  return { _id: row.id, name: row.name, createdAt: row.created_at, lastUsedAt: row.last_used_at, lastUsedIp: row.last_used_ip };
}
