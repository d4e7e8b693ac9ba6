import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type AuditExportQuery, auditExportQuerySchema } from '@bogwan/contracts';
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

interface Payload extends AuditExportTicketClaims {
  expiry: number;
  nonce: string;
}

/**
 * Single-use tickets that let the activity screen hand an export to the browser's download
 * manager: `GET /api/event/export?ticket=…` carries no bearer token. `<payload>.<HMAC>`: the
 * payload names the account, the export's query (filter, format, language), an expiry and a
 * nonce, so the address cannot be widened to another filter. The first use spends the nonce
 * in `spent` (the database's spent tickets, shared with share-link downloads), so two
 * processes cannot both serve one ticket.
 */
export class AuditExportTickets {
  private readonly key: Buffer;

  constructor(
    serverSecret: string,
    private readonly spent: SpentNonces,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.key = createHash('sha256').update(`audit-export-ticket:${serverSecret}`).digest();
  }

  issue(claims: AuditExportTicketClaims): string {
    const payload: Payload = { ...claims, expiry: this.now() + AUDIT_EXPORT_TICKET_TTL_MS, nonce: randomBytes(16).toString('base64url') };
    const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${encoded}.${this.sign(encoded)}`;
  }

  /** The claims of a genuine, unexpired ticket, exactly once; null for anything else (forged, expired, used). */
  async spend(ticket: string): Promise<AuditExportTicketClaims | null> {
    if (ticket.length > MAX_TICKET_LENGTH) return null;
    const [encoded, signature, extra] = ticket.split('.');
    if (!encoded || !signature || extra !== undefined) return null;
    const expected = Buffer.from(this.sign(encoded));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const payload = parsePayload(encoded);
    if (!payload || payload.expiry <= this.now()) return null;
    if (!(await this.spent.take(payload.nonce, payload.expiry))) return null;
    return { accountId: payload.accountId, query: payload.query };
  }

  private sign(encoded: string): string {
    return createHmac('sha256', this.key).update(encoded).digest('base64url');
  }
}

function parsePayload(encoded: string): Payload | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.accountId !== 'string' || typeof v.nonce !== 'string' || typeof v.expiry !== 'number' || !Number.isFinite(v.expiry)) return null;
  const query = auditExportQuerySchema.safeParse(v.query);
  return query.success ? { accountId: v.accountId, nonce: v.nonce, expiry: v.expiry, query: query.data } : null;
}
