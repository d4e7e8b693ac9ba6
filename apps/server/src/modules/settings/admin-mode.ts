import type { SettingsRepo } from './settings.repo.js';

/** How long admin mode stays on for a session once the password was given. */
export const ADMIN_MODE_HOURS = 8;
const PREFIX = 'admin_mode.';

/**
 * Admin mode, held per session on the server (in the settings table, so every server process
 * sees it): switched on by the administrator's own password, it unlocks the cloud storage
 * settings until it is turned off again or its hours run out. The browser's switch mirrors it.
 */
export class AdminMode {
  constructor(private readonly settings: SettingsRepo) {}

  async turnOn(sessionId: string, now = new Date()): Promise<void> {
    await this.settings.set(`${PREFIX}${sessionId}`, { until: new Date(now.getTime() + ADMIN_MODE_HOURS * 3_600_000).toISOString() });
  }

  /** Locks the session again (the browser's switch turned off). */
  async turnOff(sessionId: string): Promise<void> {
    await this.settings.delete(`${PREFIX}${sessionId}`);
  }

  async isOn(sessionId: string | null, now = new Date()): Promise<boolean> {
    if (!sessionId) return false;
    const value = await this.settings.get<{ until?: string }>(`${PREFIX}${sessionId}`);
    return typeof value?.until === 'string' && value.until > now.toISOString();
  }

  /** Forgets switches older than their lifetime (hourly housekeeping). */
  async purge(now = new Date()): Promise<void> {
    await this.settings.deleteOlderThan(PREFIX, new Date(now.getTime() - ADMIN_MODE_HOURS * 3_600_000).toISOString());
  }
}
