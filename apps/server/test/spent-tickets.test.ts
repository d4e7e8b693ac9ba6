import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Db, migrateToLatest } from '../src/db/index.js';
import { DOWNLOAD_TICKET_TTL_MS, ShareDownloadTickets } from '../src/modules/shares/download-tickets.js';
import { SpentTicketsRepo } from '../src/modules/shares/spent-tickets.repo.js';
import { describeEachDialect, openTestDb } from './harness.js';

const claims = { shareId: 'share-1', nodeId: 'node-1', path: '/', userId: null, sessionId: null };

describeEachDialect('spent download tickets on $dialect', (dialect) => {
  let db: Db;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ db, close } = await openTestDb(dialect));
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await close?.();
  });

  it('a ticket is used once across server processes that share the database, even at the same moment', async () => {
    // Two processes: each its own ticket service (same secret), one database.
    const first = new ShareDownloadTickets('server secret', Date.now, new SpentTicketsRepo(db));
    const second = new ShareDownloadTickets('server secret', Date.now, new SpentTicketsRepo(db));
    const ticket = first.issue(claims, '');
    const answers = await Promise.all([first, second, first, second].map((process) => process.spend(ticket, '')));
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(await second.spend(ticket, '')).toBe(false);
    expect(await second.spend(second.issue(claims, ''), '')).toBe(true);
  });

  it('expired nonces are purged, the others kept', async () => {
    const repo = new SpentTicketsRepo(db);
    const now = Date.now();
    expect(await repo.take('old-nonce', now - 1000)).toBe(true);
    expect(await repo.take('live-nonce', now + DOWNLOAD_TICKET_TTL_MS)).toBe(true);
    expect(await repo.purgeExpired(new Date(now).toISOString())).toBeGreaterThanOrEqual(1);
    // The live one still counts as used; the purged one could be taken again (its ticket has expired anyway).
    expect(await repo.take('live-nonce', now + DOWNLOAD_TICKET_TTL_MS)).toBe(false);
    expect(await repo.take('old-nonce', now + 1000)).toBe(true);
  });
});
