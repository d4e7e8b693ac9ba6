import { describe, expect, it } from 'vitest';
import { DOWNLOAD_TICKET_TTL_MS, ShareDownloadTickets } from './download-tickets.js';

const claims = { shareId: 'share-1', nodeId: 'node-1', path: '/a.txt', userId: null, sessionId: null };

describe('share download tickets', async () => {
  it('are spent once, for the password hash they were issued under', async () => {
    const tickets = new ShareDownloadTickets('secret');
    const ticket = tickets.issue(claims, 'hash-1');
    expect(tickets.read(ticket)).toMatchObject(claims);
    expect(await tickets.spend(ticket, 'hash-2')).toBe(false);
    expect(await tickets.spend(ticket, 'hash-1')).toBe(true);
    expect(await tickets.spend(ticket, 'hash-1')).toBe(false);
    expect(await tickets.spend(tickets.issue(claims, 'hash-1'), 'hash-1')).toBe(true);
  });

  it('expire after a minute', async () => {
    let now = 1_000_000;
    const tickets = new ShareDownloadTickets('secret', () => now);
    const ticket = tickets.issue(claims, '');
    now += DOWNLOAD_TICKET_TTL_MS;
    expect(await tickets.spend(ticket, '')).toBe(false);
  });

  it('refuse forged, altered or foreign tickets', async () => {
    const tickets = new ShareDownloadTickets('secret');
    const ticket = tickets.issue(claims, '');
    const [payload, signature] = ticket.split('.') as [string, string];
    const other = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), path: '/b.txt' })).toString('base64url');
    expect(await tickets.spend(`${other}.${signature}`, '')).toBe(false);
    expect(await tickets.spend(new ShareDownloadTickets('another secret').issue(claims, ''), '')).toBe(false);
    for (const bad of ['', 'x', 'x.y', `${payload}.${signature}.z`, `${'a'.repeat(3000)}.b`]) {
      expect(tickets.read(bad)).toBeNull();
      expect(await tickets.spend(bad, '')).toBe(false);
    }
    expect(await tickets.spend(ticket, '')).toBe(true);
  });
});
