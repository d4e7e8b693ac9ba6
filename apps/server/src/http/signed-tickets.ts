import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SpentNonces } from '../modules/shares/spent-tickets.repo.js';

/** A ticket's signed content: what it stands for, when it was issued and expires, and its nonce. */
export interface TicketContent<C> {
  claims: C;
  issuedAt: number;
  expiry: number;
  nonce: string;
}

interface Payload<C> {
  c: C;
  iat: number;
  exp: number;
  n: string;
}

/**
 * Signed tickets that let the browser fetch something from an address carrying only the
 * ticket (the download manager cannot send the bearer token): `<payload>.<HMAC>`, the payload
 * naming the claims, the issue time, an expiry and a nonce. Each purpose (share downloads,
 * audit exports, file downloads) signs with its own key derived from the server secret, so a
 * ticket of one kind never passes as another. `extraKey` (a share link's password hash) is
 * signed with the payload: changing it ends every ticket issued before. A ticket is spent by
 * its first use through `spend`: the nonce goes into the spent nonces (the database in the
 * server, so every process agrees) until the ticket expires.
 */
export class SignedTickets<C> {
  private readonly key: Buffer;

  constructor(
    purpose: string,
    serverSecret: string,
    /** The claims when `value` has their shape; null otherwise. */
    private readonly claimsOf: (value: unknown) => C | null,
    private readonly options: { maxLength: number; now?: () => number },
  ) {
    this.key = createHash('sha256').update(`${purpose}:${serverSecret}`).digest();
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** A ticket for `claims`, valid `ttlMs` from now. */
  issue(claims: C, ttlMs: number, extraKey = ''): string {
    const now = this.now();
    const payload: Payload<C> = { c: claims, iat: now, exp: now + ttlMs, n: randomBytes(16).toString('base64url') };
    const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${encoded}.${this.sign(encoded, extraKey)}`;
  }

  /** What a ticket states, not verified (for finding the key material that signs it); null when malformed. */
  read(ticket: string): TicketContent<C> | null {
    return this.parse(ticket)?.content ?? null;
  }

  /** The content of a genuine ticket, expired or not, unspent or not; null when forged or malformed. */
  verify(ticket: string, extraKey = ''): TicketContent<C> | null {
    const parsed = this.parse(ticket);
    if (!parsed) return null;
    const expected = Buffer.from(this.sign(parsed.encoded, extraKey));
    const given = Buffer.from(parsed.signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return parsed.content;
  }

  /** The content of a genuine, unexpired ticket, exactly once; null for anything else (forged, expired, used). */
  async spend(ticket: string, spent: SpentNonces, extraKey = ''): Promise<TicketContent<C> | null> {
    const content = this.verify(ticket, extraKey);
    if (!content || content.expiry <= this.now()) return null;
    return (await spent.take(content.nonce, content.expiry)) ? content : null;
  }

  private parse(ticket: string): { encoded: string; signature: string; content: TicketContent<C> } | null {
    if (ticket.length > this.options.maxLength) return null;
    const [encoded, signature, extra] = ticket.split('.');
    if (!encoded || !signature || extra !== undefined) return null;
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    if (typeof value !== 'object' || value === null) return null;
    const v = value as Record<string, unknown>;
    const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
    if (!finite(v.iat) || !finite(v.exp) || typeof v.n !== 'string') return null;
    const claims = this.claimsOf(v.c);
    return claims === null ? null : { encoded, signature, content: { claims, issuedAt: v.iat, expiry: v.exp, nonce: v.n } };
  }

  private sign(encoded: string, extraKey: string): string {
    return createHmac('sha256', this.key).update(`${encoded}\u0000${extraKey}`).digest('base64url');
  }
}
