import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { warnOfLicenceEnd } from '../src/modules/licence/licence-warnings.js';
import { NotificationsRepo } from '../src/modules/notifications/notifications.repo.js';
import { NotificationsService } from '../src/modules/notifications/notifications.service.js';
import { SettingsRepo } from '../src/modules/settings/settings.repo.js';
import { UsersRepo } from '../src/modules/users/users.repo.js';
import { signInAs } from './files-helpers.js';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';

describeEachDialect('licence end warnings on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let user: Awaited<ReturnType<typeof signInAs>>;
  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    user = await signInAs(server, 'user@example.com');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('warns the administrators once a day in the last week of the trial, and nobody else', async () => {
    const db = server.app.db;
    const settings = new SettingsRepo(db);
    const notifications = new NotificationsService(new NotificationsRepo(db), { emitToUser: () => undefined });
    const warn = (now?: Date) => warnOfLicenceEnd(server.app.licence, settings, new UsersRepo(db), notifications, now);

    expect(await warn()).toBe(0); // a fresh trial has 30 days left

    const fiveDaysLeft = new Date(Date.now() + 5 * 86_400_000 - 30 * 86_400_000);
    await db
      .updateTable('settings')
      .set({ value: JSON.stringify(fiveDaysLeft.toISOString()) })
      .where('key', '=', 'licence.trial_started')
      .execute();
    // The licence service caches its state for a few seconds.
    await new Promise((r) => setTimeout(r, 5200));
    expect(await warn()).toBe(1);
    expect(await warn()).toBe(0);

    const adminNotes = await call(server, apiCalls.notification_list, { token: master.token, query: { read: 'false' } });
    expect(adminNotes.body.some((n) => n.level === 1 && n.key === 'note_licence_ends_in' && n.params.count === 5)).toBe(true);
    const userNotes = await call(server, apiCalls.notification_list, { token: user.token });
    expect(userNotes.body).toEqual([]);
  });
});
