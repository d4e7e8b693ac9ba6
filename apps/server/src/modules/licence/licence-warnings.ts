import type { NotificationsService } from '../notifications/notifications.service.js';
import type { SettingsRepo } from '../settings/settings.repo.js';
import type { UsersRepo } from '../users/users.repo.js';
import type { LicenceService } from './licence.service.js';

const WARN_DAYS = 7;
const DAY_MS = 86_400_000;

/**
 * Warns the administrators, once a day during the last week, that the licence (trial or
 * key) is about to end. The day's settings row is the claim, so several processes send
 * one warning between them.
 */
export async function warnOfLicenceEnd(
  licence: LicenceService,
  settings: SettingsRepo,
  users: UsersRepo,
  notifications: NotificationsService,
  now = new Date(),
): Promise<number> {
  const { validUntil } = await licence.state();
  const daysLeft = Math.ceil((validUntil.getTime() - now.getTime()) / DAY_MS);
  if (daysLeft < 0 || daysLeft > WARN_DAYS) return 0;
  const day = now.toISOString().slice(0, 10);
  const claim = `${process.pid}-${now.getTime()}`;
  if ((await settings.getOrInsert(`licence.warned.${day}`, claim)) !== claim) return 0;
  const admins = (await users.list()).filter((u) => u.role_level >= 2 && u.status === 'ACTIVE');
  const when = validUntil.toISOString().slice(0, 10);
  for (const admin of admins) {
    if (daysLeft === 0) await notifications.notify(admin.id, 'note_licence_ends_today', { date: when }, 1);
    else await notifications.notify(admin.id, 'note_licence_ends_in', { count: daysLeft, date: when }, 1);
  }
  return admins.length;
}
