import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type SpentNonces, SpentNoncesInMemory } from './spent-tickets.repo.js';

/** How long a download ticket waits for the browser to ask for its bytes. */
export const DOWNLOAD_TICKET_TTL_MS = 60_000;
/** Longer strings are refused before any parsing. */
const MAX_TICKET_LENGTH = 2000;

/** What a download ticket stands for: one item of one link, for one visitor. */
export interface DownloadTicketClaims {
  shareId: string;
  nodeId: string;
  /** The item's path inside the link (`/` is the link's item). */
  path: string;
  /** The signed-in visitor and their session, when the ticket was asked for with a sign-in. */
  userId: string | null;
  sessionId: string | null;
}

interface Payload extends DownloadTicketClaims {
  expiry: number;
  nonce: string;
}

/**
 * Single-use tickets that let the share page hand a download to the browser, which then
 * streams it to disk from a URL carrying only the ticket (no share token or bearer token in
 * the URL). `<payload>.<HMAC>`: the payload names the link, the item, the visitor, an expiry
 * and a nonce; the HMAC also covers the link's stored password hash, so changing the password
 * ends every ticket given before. A ticket is spent by its first use; spent nonces are kept
 * until they expire in `spent` (the database in the server, so every process agrees).
 */
export class ShareDownloadTickets {
  private readonly key: Buffer;

  constructor(
    serverSecret: string,
    private readonly now: () => number = () => Date.now(),
    private readonly spent: SpentNonces = new SpentNoncesInMemory(now),
  ) {
    this.key = createHash('sha256').update(`share-download-ticket:${serverSecret}`).digest();
  }

  issue(claims: DownloadTicketClaims, passwordHash: string): string {
    const payload: Payload = { ...claims, expiry: this.now() + DOWNLOAD_TICKET_TTL_MS, nonce: randomBytes(16).toString('base64url') };
    const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${encoded}.${this.sign(encoded, passwordHash)}`;
  }

  /** The claims a ticket states, not yet verified (they name the link whose password hash signs it); null when malformed. */
  read(ticket: string): DownloadTicketClaims | null {
    return this.parse(ticket)?.payload ?? null;
  }

  /**
   * True exactly once for a ticket signed for this password hash and not expired; false
   * for anything else (forged, expired, already used).
   */
  async spend(ticket: string, passwordHash: string): Promise<boolean> {
    const parsed = this.parse(ticket);
    if (!parsed) return false;
    const { encoded, signature, payload } = parsed;
    const now = this.now();
    if (payload.expiry <= now) return false;
    const expected = Buffer.from(this.sign(encoded, passwordHash));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    return this.spent.take(payload.nonce, payload.expiry);
  }

  private parse(ticket: string): { encoded: string; signature: string; payload: Payload } | null {
    if (ticket.length > MAX_TICKET_LENGTH) return null;
    const [encoded, signature, extra] = ticket.split('.');
    if (!encoded || !signature || extra !== undefined) return null;
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    return isPayload(payload) ? { encoded, signature, payload } : null;
  }

  private sign(encoded: string, passwordHash: string): string {
    return createHmac('sha256', this.key).update(`${encoded}\u0000${passwordHash}`).digest('base64url');
  }
}

function isPayload(value: unknown): value is Payload {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const text = (x: unknown) => typeof x === 'string';
  const textOrNull = (x: unknown) => x === null || typeof x === 'string';
  return (
    text(v.shareId) &&
    text(v.nodeId) &&
    text(v.path) &&
    textOrNull(v.userId) &&
    textOrNull(v.sessionId) &&
    text(v.nonce) &&
    typeof v.expiry === 'number' &&
    Number.isFinite(v.expiry)
  );
}
