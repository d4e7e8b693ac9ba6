import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SHARE_KEY_PATTERN } from '@bogwan/contracts';

/** A new share key: 32 random bytes (256 bits), base64url. Never derived from anything. */
export function newShareKey(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The SHA-256 of a key, which lookups go by: the index compares hashes, so how long an
 * unknown key takes to refuse says nothing about how much of it matched a real one.
 */
export function shareKeyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export const isShareKey = (key: string) => SHARE_KEY_PATTERN.test(key);

/** How long the token of an unlocked link is valid. */
export const SHARE_TOKEN_TTL_MS = 60 * 60_000;

/**
 * Short-lived tokens proving a link's password was given: `<expiry>.<HMAC>` over the
 * link id, the expiry and the stored password hash, so changing or removing the password
 * ends every token given before.
 */
export class ShareTokens {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = createHash('sha256').update(`share-token:${serverSecret}`).digest();
  }

  issue(shareId: string, passwordHash: string, now = Date.now()): string {
    const expiry = String(now + SHARE_TOKEN_TTL_MS);
    return `${expiry}.${this.sign(shareId, expiry, passwordHash)}`;
  }

  verify(token: string | undefined, shareId: string, passwordHash: string, now = Date.now()): boolean {
    if (!token || token.length > 200) return false;
    const [expiry, signature] = token.split('.');
    if (!expiry || !signature || !/^\d{1,16}$/.test(expiry) || Number(expiry) <= now) return false;
    const expected = Buffer.from(this.sign(shareId, expiry, passwordHash));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private sign(shareId: string, expiry: string, passwordHash: string): string {
    return createHmac('sha256', this.key).update(`${shareId}\u0000${expiry}\u0000${passwordHash}`).digest('base64url');
  }
}
