import { notificationSchema, taskEntrySchema } from '@bogwan/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { connectRealtime } from '../../../api/realtime-socket';
import { refetchAfterChange } from '../../../api/refetch';
import { dashboardQueryOptions } from '../../../features/dashboard/api/get-dashboard';
import { refreshUsage, tabHidden } from '../../../features/files/api/get-root-usage';
import { applyNotificationEvent } from '../../../features/notifications/api/get-notifications';
import { notificationKeys } from '../../../features/notifications/api/keys';
import { applyTaskEvent } from '../../../features/tasks/api/get-task-cache';
import { taskCacheKey } from '../../../features/tasks/api/keys';
import { useAuth } from '../../../state/auth';

/**
 * This tab's socket while a user is signed in: `notification` events go on top of the
 * bell's list, `task` events into the task cache, `usage` events refresh the usage figures. Closed on sign-out (the layout
 * unmounts) and reopened for another user.
 */
export function useRealtime(): void {
  const client = useQueryClient();
  const userId = useAuth()?.user._id ?? null;

  useEffect(() => {
    if (!userId) return;
    return connectRealtime({
      notification: (payload) => {
        const parsed = notificationSchema.safeParse(payload);
        if (parsed.success) applyNotificationEvent(client, userId, parsed.data);
      },
      task: (payload) => {
        const parsed = taskEntrySchema.safeParse(payload);
        if (parsed.success) applyTaskEvent(client, userId, parsed.data);
      },
      // Root usage changed somewhere (coalesced on the server): the usage bar and the dashboard read theirs again.
      usage: () => {
        void refreshUsage(client);
        if (!tabHidden()) void refetchAfterChange(client, dashboardQueryOptions().queryKey);
      },
      connected: () => {
        // Events sent while the socket was away are read again.
        void refetchAfterChange(client, notificationKeys.all(userId));
        void refetchAfterChange(client, taskCacheKey(userId));
        void refreshUsage(client);
      },
    });
  }, [client, userId]);
}
