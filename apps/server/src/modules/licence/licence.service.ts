import { randomUUID, type KeyObject } from 'node:crypto';
import type { Licence, LicenceCheck, LicenceUpdateResponse } from '@bogwan/contracts';
import { badRequest, forbidden, unauthorized } from '../../errors.js';
import type { SettingsRepo } from '../settings/settings.repo.js';
import type { UserRow } from '../users/users.repo.js';
import { type LicencePayload, maintenanceEnd, readLicenceKey } from './licence-key.js';
import { toLicenceResponse } from './licence.presenter.js';
import type { LicenceRepo } from './licence.repo.js';

/** A fresh installation runs this long on its built-in trial. */
export const TRIAL_DAYS = 30;
/** Accounts the trial allows. */
export const TRIAL_SEATS = 10;
/**
 * How long one process trusts what it read from the settings table. Several processes
 * may share the database; a key saved by another one is seen within this time.
 */
export const LICENCE_CACHE_MS = 5000;

const SETTING = { serverId: 'server.id', key: 'licence.key', trialStarted: 'licence.trial_started' } as const;
const DAY_MS = 86_400_000;

/** What the settings table says about the licence, read at most every LICENCE_CACHE_MS. */
export interface LicenceState {
  serverId: string;
  trialStarted: Date;
  trialEnd: Date;
  /** The saved key when its signature is good and it names this server (its maintenance may have ended). */
  key: LicencePayload | null;
  /** The first moment the installation needs a (new) key: the later of the trial end and the key's maintenance end. */
  validUntil: Date;
}

/** Licence rules: the trial, key verification, the gate's decision and the seat limit. */
export class LicenceService {
  private cache: { state: LicenceState; at: number } | undefined;
  private loading: Promise<LicenceState> | undefined;

  constructor(
    private readonly settings: SettingsRepo,
    private readonly repo: LicenceRepo,
    private readonly publicKey: KeyObject,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** First start: gives the installation its server id and starts the trial (both kept if present). */
  async start(): Promise<LicenceState> {
    this.invalidate();
    return this.state();
  }

  /** Forgets the cached state; the next call reads the settings table again. */
  invalidate(): void {
    this.cache = undefined;
  }

  async state(): Promise<LicenceState> {
    if (this.cache && Date.now() - this.cache.at < LICENCE_CACHE_MS) return this.cache.state;
    // Callers arriving while the state is read share the one read.
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  /** True when every call outside the exempt ones must be refused until a key is saved. */
  async isRequired(): Promise<boolean> {
    return this.now() >= (await this.state()).validUntil;
  }

  async check(): Promise<LicenceCheck> {
    const state = await this.state();
    return { isVerifyLicenseRequired: this.now() >= state.validUntil, serverId: state.serverId };
  }

  /**
   * The licence fields. While a key is needed the answer is 403 `license_required` for
   * every caller, signed in or not (the web polls this to open its licence dialog);
   * otherwise the fields are for administrators.
   */
  async read(caller: UserRow | null): Promise<Licence> {
    const state = await this.state();
    if (this.now() >= state.validUntil) throw forbidden('license_required');
    if (!caller) throw unauthorized();
    if (caller.role_level < 2) throw forbidden();
    return toLicenceResponse(state, TRIAL_SEATS, await this.repo.countSeatsUsed());
  }

  /** Verifies and stores a key; refuses a bad signature, another server's key, or one whose maintenance has ended. */
  async save(rawKey: string): Promise<LicenceUpdateResponse & { licence: LicencePayload }> {
    // Keys pasted from mail often carry line breaks.
    const key = rawKey.replace(/\s+/g, '');
    const state = await this.state();
    const payload = this.acceptable(key, state.serverId);
    if (!payload) throw badRequest('invalid_license');
    await this.settings.set(SETTING.key, key);
    this.invalidate();
    return { success: true, message: 'license_update_complete_message', licence: payload };
  }

  /**
   * The seats the licence allows (its key's users, else the trial's); 403 `license_required`
   * while a key is needed. Every change that makes accounts ACTIVE checks it in the same
   * transaction as the change, under the accounts lock (UsersRepo).
   */
  async seats(): Promise<number> {
    const state = await this.state();
    if (this.now() >= state.validUntil) throw forbidden('license_required');
    return state.key ? state.key.user : TRIAL_SEATS;
  }

  /** Whether `count` more ACTIVE accounts fit now (an answer for screens; the decision is the account change's own). */
  async assertSeatAvailable(count = 1): Promise<void> {
    const seats = await this.seats();
    if ((await this.repo.countSeatsUsed()) + count > seats) throw forbidden('license_seat_limit_reached');
  }

  private acceptable(key: string, serverId: string): LicencePayload | null {
    const payload = readLicenceKey(key, this.publicKey);
    if (!payload || payload.serverId !== serverId) return null;
    if (this.now() >= maintenanceEnd(payload)) return null;
    return payload;
  }

  private async load(): Promise<LicenceState> {
    const serverId = await this.settings.getOrInsert(SETTING.serverId, randomUUID());
    const started = await this.settings.getOrInsert(SETTING.trialStarted, this.now().toISOString());
    const saved = await this.settings.get<string>(SETTING.key);
    const trialStarted = new Date(started);
    const trialEnd = new Date(trialStarted.getTime() + TRIAL_DAYS * DAY_MS);
    // A saved key is checked again on every read: a replaced public key or a copied
    // database must not keep an old key alive. Its maintenance end is when it stops.
    const payload = saved ? readLicenceKey(saved, this.publicKey) : null;
    const key = payload && payload.serverId === serverId ? payload : null;
    // The trial is never cut short: a key counts from its maintenance end or the trial end, whichever is later.
    const validUntil = key && maintenanceEnd(key) > trialEnd ? maintenanceEnd(key) : trialEnd;
    const state: LicenceState = { serverId, trialStarted, trialEnd, key, validUntil };
    this.cache = { state, at: Date.now() };
    return state;
  }
}
