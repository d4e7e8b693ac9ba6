import { type MessageResponse, type Notification, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { notificationKeys } from './keys';

/** PUT /api/notification {_id, read: true}: marks one notification read. */
export function readNotification(id: string): Promise<MessageResponse> {
  return callApi(apiCalls.notification_read, { body: { _id: id, read: true } });
}

export function useReadNotification(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: readNotification,
    onSuccess: (_answer, id) => {
      client.setQueryData<Notification[]>(notificationKeys.unread(userId), (list) => list?.filter((item) => item._id !== id));
      void client.invalidateQueries({ queryKey: notificationKeys.list(userId) });
    },
  });
}
