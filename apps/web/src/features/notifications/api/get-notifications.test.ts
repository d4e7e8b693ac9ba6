import type { Notification } from '@bogwan/contracts';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { heldFirstFetch } from '../../../api/first-fetch-fixture';
import { applyNotificationEvent } from './get-notifications';
import { notificationKeys } from './keys';

const note = (id: string): Notification => ({
  _id: id,
  userId: 'u1',
  key: 'note_legacy',
  params: { text: id },
  level: 0,
  read: false,
  createdAt: '2026-11-24T00:00:00.000Z',
});

describe('applyNotificationEvent', () => {
  it('keeps a notification that arrives while the bell is still loading for the first time', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const server = heldFirstFetch([note('old')]);
    const observer = new QueryObserver(client, { queryKey: notificationKeys.unread('u1'), queryFn: server.queryFn });
    const unsubscribe = observer.subscribe(() => undefined);

    // The server stores a new notification and sends the event before the first answer arrives.
    server.change([note('new'), note('old')]);
    applyNotificationEvent(client, 'u1', note('new'));
    server.release();
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(observer.getCurrentResult().data?.map((n) => n._id)).toEqual(['new', 'old']);
    unsubscribe();
    client.clear();
  });

  it("ignores another user's notification", () => {
    const client = new QueryClient();
    client.setQueryData(notificationKeys.unread('u1'), [note('old')]);
    applyNotificationEvent(client, 'u1', { ...note('theirs'), userId: 'u2' });
    expect(client.getQueryData<Notification[]>(notificationKeys.unread('u1'))?.map((n) => n._id)).toEqual(['old']);
  });
});
