import { type AuditExportQuery, auditExportQuerySchema } from '@bogwan/contracts';
import { SignedTickets } from '../../http/signed-tickets.js';
import type { SpentNonces } from '../shares/spent-tickets.repo.js';

/** How long an export ticket waits for the browser to ask for the file. */
export const AUDIT_EXPORT_TICKET_TTL_MS = 60_000;
/** Longer strings are refused before any parsing. */
const MAX_TICKET_LENGTH = 8000;

/** What an export ticket stands for: one account's export with one filter, format and language. */
export interface AuditExportTicketClaims {
  accountId: string;
  query: AuditExportQuery;
}

/**
 * Single-use tickets that let the activity screen hand an export to the browser's download
 * manager: `GET /api/event/export?ticket=…` carries no bearer token. The ticket names the
 * account, the export's query (filter, format, language), an expiry and a nonce, so the
 * address cannot be widened to another filter. The first use spends the nonce in `spent`
 * (the database's spent tickets, shared with share-link downloads), so two processes cannot
 * both serve one ticket.
 */
export class AuditExportTickets {
  private readonly tickets: SignedTickets<AuditExportTicketClaims>;

  constructor(
    serverSecret: string,
    private readonly spent: SpentNonces,
    now: () => number = () => Date.now(),
  ) {
    this.tickets = new SignedTickets('audit-export-ticket', serverSecret, claimsOf, { maxLength: MAX_TICKET_LENGTH, now });
  }

  issue(claims: AuditExportTicketClaims): string {
    return this.tickets.issue(claims, AUDIT_EXPORT_TICKET_TTL_MS);
  }

  /** The claims of a genuine, unexpired ticket, exactly once; null for anything else (forged, expired, used). */
  async spend(ticket: string): Promise<AuditExportTicketClaims | null> {
    return (await this.tickets.spend(ticket, this.spent))?.claims ?? null;
  }
}

function claimsOf(value: unknown): AuditExportTicketClaims | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.accountId !== 'string') return null;
  const query = auditExportQuerySchema.safeParse(v.query);
  return query.success ? { accountId: v.accountId, query: query.data } : null;
}
