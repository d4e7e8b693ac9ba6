import { auditExportQuerySchema } from '@bogwan/contracts';
import { describe, expect, it } from 'vitest';
import { SpentNoncesInMemory } from '../shares/spent-tickets.repo.js';
import { AUDIT_EXPORT_TICKET_TTL_MS, AuditExportTickets } from './audit-export-tickets.js';

const query = auditExportQuerySchema.parse({ format: 'csv', lang: 'ko', path: '/감사팀/100%_최종', action: 'file.view,file.download' });

describe('audit export tickets', () => {
  it('stand for the account and the exact query, once', async () => {
    const tickets = new AuditExportTickets('secret', new SpentNoncesInMemory());
    const ticket = tickets.issue({ accountId: 'u1', query });
    expect(await tickets.spend(ticket)).toEqual({ accountId: 'u1', query });
    expect(await tickets.spend(ticket)).toBeNull();
  });

  it('are refused once expired, even never used', async () => {
    let now = 1_000_000;
    const tickets = new AuditExportTickets('secret', new SpentNoncesInMemory(() => now), () => now);
    const ticket = tickets.issue({ accountId: 'u1', query });
    now += AUDIT_EXPORT_TICKET_TTL_MS;
    expect(await tickets.spend(ticket)).toBeNull();
  });

  it('signed with another server secret, or for another purpose, are refused', async () => {
    const ours = new AuditExportTickets('secret', new SpentNoncesInMemory());
    const theirs = new AuditExportTickets('other secret', new SpentNoncesInMemory());
    expect(await ours.spend(theirs.issue({ accountId: 'u1', query }))).toBeNull();
    expect(await ours.spend(`${'x'.repeat(9000)}.y`)).toBeNull();
  });
});
