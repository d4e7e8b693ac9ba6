/** Query keys of the user's notifications: the unread ones (bell) and all of them (settings). */
export const notificationKeys = {
  all: (userId: string) => ['notification', userId] as const,
  unread: (userId: string) => ['notification', userId, 'unread'] as const,
  list: (userId: string) => ['notification', userId, 'all'] as const,
};
