import { DOWNLOAD_TICKET_FIRST_USE_SECONDS, DOWNLOAD_TICKET_RESUME_SECONDS } from '@bogwan/contracts';
import { describe, expect, it } from 'vitest';
import { SpentNoncesInMemory } from '../shares/spent-tickets.repo.js';
import { FileDownloadTickets } from './file-download-tickets.js';

const address = '/api/file/download?path=%2FTeam%2Freport.bin';
const claims = { userId: 'u1', sessionId: 's1', hash: 'abc', resumable: true };

function clockedTickets() {
  const clock = { now: 1_000_000 };
  const now = () => clock.now;
  return { clock, tickets: new FileDownloadTickets('secret', new SpentNoncesInMemory(now), now) };
}
const ticketOf = (url: string) => new URL(url, 'http://x').searchParams.get('ticket')!;

describe('file download tickets', () => {
  it('admit one first request, then only Range resumes from a later byte', async () => {
    const { tickets } = clockedTickets();
    const url = tickets.issue(address, claims);
    expect(url.startsWith(`${address}&ticket=`)).toBe(true);
    const ticket = ticketOf(url);
    expect(await tickets.admit(ticket, url, undefined)).toMatchObject(claims);
    expect(await tickets.admit(ticket, url, undefined)).toBeNull();
    expect(await tickets.admit(ticket, url, 'bytes=0-')).toBeNull();
    expect(await tickets.admit(ticket, url, 'bytes=-100')).toBeNull();
    expect(await tickets.admit(ticket, url, 'bytes=5000-')).toMatchObject(claims);
    expect(await tickets.admit(ticket, url, 'bytes=9000-9999')).toMatchObject(claims);
  });

  it('refuse a resume of a ticket never used, and any resume of a zip', async () => {
    const { tickets } = clockedTickets();
    const unused = tickets.issue(address, claims);
    expect(await tickets.admit(ticketOf(unused), unused, 'bytes=10-')).toBeNull();
    const zip = tickets.issue('/api/file/download?paths=%2Fa&paths=%2Fb', { ...claims, hash: null, resumable: false });
    expect(await tickets.admit(ticketOf(zip), zip, undefined)).not.toBeNull();
    expect(await tickets.admit(ticketOf(zip), zip, 'bytes=10-')).toBeNull();
  });

  it('wait a minute for the first request and allow resumes until the resume time ends', async () => {
    const { clock, tickets } = clockedTickets();
    const late = tickets.issue(address, claims);
    clock.now += DOWNLOAD_TICKET_FIRST_USE_SECONDS * 1000;
    expect(await tickets.admit(ticketOf(late), late, undefined)).toBeNull();

    const url = tickets.issue(address, claims);
    expect(await tickets.admit(ticketOf(url), url, undefined)).not.toBeNull();
    clock.now += DOWNLOAD_TICKET_RESUME_SECONDS * 1000 - 1;
    expect(await tickets.admit(ticketOf(url), url, 'bytes=100-')).not.toBeNull();
    clock.now += 1;
    expect(await tickets.admit(ticketOf(url), url, 'bytes=100-')).toBeNull();
  });

  it('are bound to their address and signature', async () => {
    const { tickets } = clockedTickets();
    const url = tickets.issue(address, claims);
    const ticket = ticketOf(url);
    expect(await tickets.admit(ticket, url.replace('report.bin', 'other.bin'), undefined)).toBeNull();
    expect(await tickets.admit(ticket, `${url}&paths=%2Fx`, undefined)).toBeNull();
    const foreign = new FileDownloadTickets('another secret', new SpentNoncesInMemory()).issue(address, claims);
    expect(await tickets.admit(ticketOf(foreign), foreign, undefined)).toBeNull();
    for (const bad of ['', 'x', 'x.y', `${ticket}.z`, 'a'.repeat(2000)]) expect(await tickets.admit(bad, url, undefined)).toBeNull();
    // None of that spent it.
    expect(await tickets.admit(ticket, url, undefined)).not.toBeNull();
  });
});
