import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { notificationKeys } from './keys';

/** PUT /api/notification/read-all: marks every notification of the user read. */
export function readAllNotifications(): Promise<void> {
  return apiFetch('/notification/read-all', { method: 'PUT' });
}

/** 'All read': clears the bell's list and reloads the table. */
export function useReadAllNotifications(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: readAllNotifications,
    onSuccess: () => {
      client.setQueryData(notificationKeys.unread(userId), []);
      void client.invalidateQueries({ queryKey: notificationKeys.all(userId) });
    },
  });
}
