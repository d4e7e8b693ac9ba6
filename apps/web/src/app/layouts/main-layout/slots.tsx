import { UsageBar } from '../../../features/files/components/usage-bar';
import { NotificationBell } from '../../../features/notifications/components/notification-bell';
import { TopBarSearch } from '../../../features/search/components/top-bar-search';
import { useAuth } from '../../../state/auth';
import { selectSetting } from '../../../state/settings';
import { useOpenSettings } from './settings-slot';
import { TaskStatusIndicator } from './task-status';

/*
 * Places in the shell that later features fill. Each renders nothing until its feature
 * exists, so the shell never shows a control or a number that is not real.
 */

/** Storage usage (used of total, in percent) at the bottom of the navigation drawer. */
export function UsageBarSlot({ collapsed }: { collapsed: boolean }) {
  return <UsageBar collapsed={collapsed} />;
}

/** Background task status (uploads, sync, snapshots, restores) in the top bar. */
export function TaskStatusSlot() {
  return <TaskStatusIndicator />;
}

/** Search over navigation entries and files in the top bar. */
export function SearchSlot() {
  return <TopBarSearch />;
}

/** Notification bell with its unread count in the top bar; 'show all' opens Settings → Notification. */
export function NotificationSlot() {
  const userId = useAuth()?.user._id;
  const openSettings = useOpenSettings();
  if (!userId) return null;
  return (
    <NotificationBell
      userId={userId}
      onShowAll={() => {
        selectSetting('notification');
        openSettings();
      }}
    />
  );
}
