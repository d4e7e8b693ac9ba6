import { type MessageResponse, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { notificationKeys } from './keys';

/** PUT /api/notification/read-all: marks every notification of the user read. */
export function readAllNotifications(): Promise<MessageResponse> {
  return callApi(apiCalls.notification_read_all);
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
