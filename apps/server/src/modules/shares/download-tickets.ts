import { SignedTickets } from '../../http/signed-tickets.js';
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

/**
 * Single-use tickets that let the share page hand a download to the browser, which then
 * streams it to disk from a URL carrying only the ticket (no share token or bearer token in
 * the URL). The ticket names the link, the item, the visitor, an expiry and a nonce; its
 * signature also covers the link's stored password hash, so changing the password ends every
 * ticket given before. A ticket is spent by its first use (SignedTickets).
 */
export class ShareDownloadTickets {
  private readonly tickets: SignedTickets<DownloadTicketClaims>;

  constructor(
    serverSecret: string,
    now: () => number = () => Date.now(),
    private readonly spent: SpentNonces = new SpentNoncesInMemory(now),
  ) {
    this.tickets = new SignedTickets('share-download-ticket', serverSecret, claimsOf, { maxLength: MAX_TICKET_LENGTH, now });
  }

  issue(claims: DownloadTicketClaims, passwordHash: string): string {
    return this.tickets.issue(claims, DOWNLOAD_TICKET_TTL_MS, passwordHash);
  }

  /** The claims a ticket states, not yet verified (they name the link whose password hash signs it); null when malformed. */
  read(ticket: string): DownloadTicketClaims | null {
    return this.tickets.read(ticket)?.claims ?? null;
  }

  /**
   * True exactly once for a ticket signed for this password hash and not expired; false
   * for anything else (forged, expired, already used).
   */
  async spend(ticket: string, passwordHash: string): Promise<boolean> {
    return (await this.tickets.spend(ticket, this.spent, passwordHash)) !== null;
  }
}

function claimsOf(value: unknown): DownloadTicketClaims | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const text = (x: unknown): x is string => typeof x === 'string';
  const textOrNull = (x: unknown): x is string | null => x === null || typeof x === 'string';
  if (!text(v.shareId) || !text(v.nodeId) || !text(v.path) || !textOrNull(v.userId) || !textOrNull(v.sessionId)) return null;
  return { shareId: v.shareId, nodeId: v.nodeId, path: v.path, userId: v.userId, sessionId: v.sessionId };
}
