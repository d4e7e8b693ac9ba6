import type { AuditAction } from '@bogwan/contracts';

/** What an old activity-log message says in the audit vocabulary: the action and what it was about. */
export interface LegacyReading {
  action: AuditAction;
  /** The path or name the message names ('' when none). */
  subject: string;
}

/**
 * The English sentences the old activity log wrote (before the audit trail), each with the
 * action it stands for; the first group, when there is one, is what it was about. A message
 * that matches none is shown as it was stored.
 */
const PATTERNS: [RegExp, AuditAction][] = [
  [/^First account created$/, 'auth.setup'],
  [/^Signed in \(.+\)$/, 'auth.sign_in'],
  [/^Sign-in failed for (.+)$/, 'auth.sign_in_failed'],
  [/^Signed out$/, 'auth.sign_out'],
  [/^Password changed$/, 'auth.password_change'],
  [/^Wrong current password given to .+$/, 'auth.password_check_failed'],
  [/^Created root folder (.+) \(\w+\)$/, 'file.mkdir'],
  [/^Created folder (.+)$/, 'file.mkdir'],
  [/^(?:Locked|Unlocked) folder (.+)$/, 'file.lock'],
  [/^Moved (.+) to the trash$/, 'file.trash'],
  [/^Moved (.+) to .+$/, 'file.move'],
  [/^Copied (.+) to .+$/, 'file.copy'],
  [/^Renamed (.+) to .+$/, 'file.rename'],
  [/^Group (.+) created$/, 'group.create'],
  [/^Group (.+) edited(?: \(now .+\))?$/, 'group.update'],
  [/^Group (.+) deleted$/, 'group.delete'],
  [/^\d+ member\(s\) added to group (.+)$/, 'group.members'],
  [/^A member left group (.+)$/, 'group.members'],
  [/^Requested \w+ approval for (.+)$/, 'request.create'],
  [/^The \w+ request \S+ expired$/, 'request.expire'],
  [/^Default permissions changed/, 'permission.default_change'],
  [/^Permissions of (.+) (?:removed|changed \(\d+ entr(?:y|ies)\))$/, 'permission.change'],
  [/^Admin mode turned on$/, 'admin_mode.on'],
  [/^Admin mode turned off$/, 'admin_mode.off'],
  [/^Admin mode refused/, 'admin_mode.refused'],
  [/^Notice written: (.+)$/, 'notice.create'],
  [/^Notice deleted$/, 'notice.delete'],
  [/^Created a share link \(\w+\) for (.+)$/, 'share.create'],
  [/^Changed the share link of (.+)$/, 'share.update'],
  [/^Revoked share link \S+$/, 'share.revoke'],
  [/^(?:Created|Changed|Deleted) snapshot plan (.+?)(?: \(.*\))?$/, 'snapshot.plan_change'],
  [/^Schedule \S+ of a snapshot plan set to \w+$/, 'snapshot.plan_change'],
  [/^Restore from plan (.+?) (?:canceled|failed \(.*\)|completed.*)$/, 'snapshot.restore'],
];

/** The audit action an old activity-log message stands for, or null when none can be told. */
export function readLegacyMessage(message: string): LegacyReading | null {
  const text = message.trim();
  for (const [pattern, action] of PATTERNS) {
    const match = pattern.exec(text);
    if (match) return { action, subject: match[1] ?? '' };
  }
  return null;
}
