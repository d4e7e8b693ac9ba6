import { createHmac } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';

const ALGORITHM = 'HS256';
const AUDIENCE = 'bogwan-preview';
/** How long a player may keep asking for ranges of the file it opened. */
export const PREVIEW_TICKET_TTL_SECONDS = 2 * 60 * 60;

/** Who may stream which file: the account, its session and the node. */
export interface PreviewTicketClaims {
  userId: string;
  sessionId: string;
  nodeId: string;
}

/**
 * Tickets that let a `<video>` or `<audio>` element (which cannot send the Authorization
 * header) stream one file with Range requests. A ticket names the account, its session
 * and the node; the stream route checks all three again on every request, so signing
 * out, losing PREVIEW or moving the file ends it. Signed with a key derived from the
 * server secret, apart from the access tokens' key and audience.
 */
export class PreviewTickets {
  private readonly key: Uint8Array;

  constructor(serverSecret: string) {
    this.key = createHmac('sha256', serverSecret).update('bogwan preview ticket').digest();
  }

  sign(claims: PreviewTicketClaims): Promise<string> {
    return new SignJWT({ sid: claims.sessionId, nid: claims.nodeId })
      .setProtectedHeader({ alg: ALGORITHM })
      .setSubject(claims.userId)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${PREVIEW_TICKET_TTL_SECONDS}s`)
      .sign(this.key);
  }

  /** The claims of a valid, unexpired ticket; null for anything else. */
  async verify(ticket: string): Promise<PreviewTicketClaims | null> {
    try {
      const { payload } = await jwtVerify(ticket, this.key, { algorithms: [ALGORITHM], audience: AUDIENCE, requiredClaims: ['sub', 'exp'] });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.nid !== 'string') return null;
      return { userId: payload.sub, sessionId: payload.sid, nodeId: payload.nid };
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }
}
