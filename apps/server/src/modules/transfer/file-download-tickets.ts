import { createHash } from 'node:crypto';
import { DOWNLOAD_TICKET_FIRST_USE_SECONDS, DOWNLOAD_TICKET_RESUME_SECONDS } from '@bogwan/contracts';
import { SignedTickets } from '../../http/signed-tickets.js';
import type { SpentNonces } from '../shares/spent-tickets.repo.js';

/** Longer strings are refused before any parsing. */
const MAX_TICKET_LENGTH = 1000;

/** What a file download ticket stands for. */
export interface FileDownloadTicketClaims {
  userId: string;
  sessionId: string;
  /** SHA-256 of the download's address (path and query, without the ticket). */
  target: string;
  /** The content hash of the file it downloads; null for a zip or a version (a version's content never changes). */
  hash: string | null;
  /** Whether Range requests may resume it (a file or a version; never a zip, which is built anew each time). */
  resumable: boolean;
}

/** The address a request asks for, as the ticket binds it: path and query in their order, without `ticket`. */
export function ticketTarget(url: string): string {
  const parsed = new URL(url, 'http://bogwan.invalid');
  parsed.searchParams.delete('ticket');
  return createHash('sha256').update(`${parsed.pathname}?${parsed.searchParams.toString()}`).digest('base64url');
}

/** The first byte a `Range: bytes=N-…` header asks for; 0 for anything else (no range, a suffix range). */
function rangeStart(header: string | undefined): number {
  const match = header ? /^bytes=(\d+)-/.exec(header.trim()) : null;
  return match ? Number(match[1]) : 0;
}

/**
 * Tickets that hand a signed-in download to the browser's download manager (which cannot send
 * the bearer token): the address is the download's own, plus `ticket`. A ticket is bound to
 * the account and its session (signing out ends it), to that exact address, and for a file to
 * its content hash (a replaced file needs a new ticket). Its first request must come within a
 * minute and spends it (the spent nonces in the database, so every process agrees); that
 * request starts at the first byte, so the audit records one download. A file's or version's
 * download interrupted later resumes with `Range` from a later byte under the same ticket
 * until DOWNLOAD_TICKET_RESUME_SECONDS after issue, but only once the ticket was spent: a
 * ticket never used cannot fetch a file's tail unrecorded.
 */
export class FileDownloadTickets {
  private readonly tickets: SignedTickets<FileDownloadTicketClaims>;

  constructor(
    serverSecret: string,
    private readonly spent: SpentNonces,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.tickets = new SignedTickets('file-download-ticket', serverSecret, claimsOf, { maxLength: MAX_TICKET_LENGTH, now });
  }

  /** `address` (`/api/…?query`) with a ticket for it appended. */
  issue(address: string, claims: Omit<FileDownloadTicketClaims, 'target'>): string {
    const ticket = this.tickets.issue({ ...claims, target: ticketTarget(address) }, DOWNLOAD_TICKET_RESUME_SECONDS * 1000);
    return `${address}${address.includes('?') ? '&' : '?'}${new URLSearchParams({ ticket })}`;
  }

  /**
   * The claims of `ticket` when it admits this request (its URL and Range header); null when
   * it does not: forged, for another address, past its time, a first use of a spent ticket,
   * or a resume of a ticket never used.
   */
  async admit(ticket: string, url: string, range: string | undefined): Promise<FileDownloadTicketClaims | null> {
    const content = this.tickets.verify(ticket);
    if (!content || content.claims.target !== ticketTarget(url)) return null;
    const now = this.now();
    if (now >= content.expiry) return null;
    const resume = content.claims.resumable && rangeStart(range) > 0;
    if (!resume && now >= content.issuedAt + DOWNLOAD_TICKET_FIRST_USE_SECONDS * 1000) return null;
    // The nonce is kept until the resume time ends: true here means this is its first use.
    const firstUse = await this.spent.take(content.nonce, content.expiry);
    return firstUse !== resume ? content.claims : null;
  }
}

function claimsOf(value: unknown): FileDownloadTicketClaims | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const text = (x: unknown): x is string => typeof x === 'string';
  if (!text(v.userId) || !text(v.sessionId) || !text(v.target) || !(v.hash === null || text(v.hash)) || typeof v.resumable !== 'boolean') return null;
  return { userId: v.userId, sessionId: v.sessionId, target: v.target, hash: v.hash, resumable: v.resumable };
}
