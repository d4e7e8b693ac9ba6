import { type Notification, apiCalls } from '@bogwan/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { refetchAfterChange } from '../../../api/refetch';
import { notificationKeys } from './keys';

/** GET /api/notification?userId&read=false: the user's notifications, newest first (unread only when asked). */
export function getNotifications(userId: string, unreadOnly: boolean, signal?: AbortSignal): Promise<Notification[]> {
  return callApi(apiCalls.notification_list, { query: { userId, read: unreadOnly ? 'false' : undefined }, signal });
}

export const unreadNotificationsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: notificationKeys.unread(userId),
    queryFn: ({ signal }) => getNotifications(userId, true, signal),
    staleTime: 60_000,
  });

export const notificationsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: notificationKeys.list(userId),
    queryFn: ({ signal }) => getNotifications(userId, false, signal),
  });

/** Unread notifications for the bell. */
export function useUnreadNotifications(userId: string) {
  return useQuery(unreadNotificationsQueryOptions(userId));
}

/** Every notification for the settings table. */
export function useNotifications(userId: string) {
  return useQuery(notificationsQueryOptions(userId));
}

/** Applies one `notification` event: it goes on top of the bell's list; the full list reloads when next shown. */
export function applyNotificationEvent(client: QueryClient, userId: string, notification: Notification): void {
  if (notification.userId !== userId) return;
  // Before the first load answered, that load may have been computed without it: fetch again.
  if (!client.getQueryData(notificationKeys.unread(userId))) void refetchAfterChange(client, notificationKeys.unread(userId));
  client.setQueryData<Notification[]>(notificationKeys.unread(userId), (list) =>
    list ? [notification, ...list.filter((item) => item._id !== notification._id)] : list,
  );
  void client.invalidateQueries({ queryKey: notificationKeys.list(userId) });
}
