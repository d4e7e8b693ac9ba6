/*
 * Places in the shell that later features fill. Each renders nothing until its feature
 * exists, so the shell never shows a control or a number that is not real.
 */

/** Storage usage (used of total, in percent) at the bottom of the navigation drawer. */
export function UsageBarSlot(_props: { collapsed: boolean }) {
  return null;
}

/** Background task status (uploads, sync, snapshots, restores) in the top bar. */
export function TaskStatusSlot() {
  return null;
}

/** Search over navigation entries and files in the top bar. */
export function SearchSlot() {
  return null;
}

/** Notification bell with its unread count in the top bar. */
export function NotificationSlot() {
  return null;
}
