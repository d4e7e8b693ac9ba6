import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** Lower-case letters and digits without the look-alikes l, o, 0 and 1: 32 symbols, 5 bits each. */
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
/** Symbols in a password: 160 random bits. */
export const APP_PASSWORD_SYMBOLS = 32;
/** Leading symbols that find the row (40 bits); the whole password is what the hash proves. */
const LOOKUP_SYMBOLS = 8;
const GROUP = 4;
const SHAPE = new RegExp(`^[${ALPHABET}]{${APP_PASSWORD_SYMBOLS}}$`);

/** A new password as people read and type it: eight groups of four, joined by hyphens. */
export function generateAppPassword(): string {
  const bytes = randomBytes(APP_PASSWORD_SYMBOLS);
  // 256 is a multiple of 32: every symbol is equally likely.
  const symbols = Array.from(bytes, (byte) => ALPHABET[byte & 31]).join('');
  return symbols.match(new RegExp(`.{${GROUP}}`, 'g'))!.join('-');
}

/**
 * A typed or pasted password in its stored form (hyphens and spaces dropped, lower case),
 * or undefined when it cannot be an app password at all (an account password, say).
 */
export function normalizeAppPassword(typed: string): string | undefined {
  const plain = typed.replace(/[\s-]/g, '').toLowerCase();
  return SHAPE.test(plain) ? plain : undefined;
}

/** The part of a normalized password its row is found by. */
export const lookupOf = (normalized: string) => normalized.slice(0, LOOKUP_SYMBOLS);

/**
 * Keyed hashing of app passwords: HMAC-SHA-256 under a key derived by HKDF from the server
 * secret for this purpose alone, over the row id and the password (a hash copied to another
 * row does not match). The passwords are 160-bit random secrets, so a slow password hash
 * adds nothing against guessing and would cost every WebDAV request (clients send the
 * password with each one); a copy of the database without the server secret cannot even
 * test a guess.
 */
export class AppPasswordHasher {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', serverSecret, 'bogwan app passwords', 'bogwan app-password hash', 32));
  }

  hash(rowId: string, normalized: string): string {
    return createHmac('sha256', this.key).update(`${rowId}\n${normalized}`).digest('hex');
  }

  /** Compares in constant time (the stored hash is hex of fixed length). */
  matches(rowId: string, normalized: string, storedHash: string): boolean {
    const actual = Buffer.from(this.hash(rowId, normalized), 'hex');
    const stored = Buffer.from(storedHash, 'hex');
    return stored.length === actual.length && timingSafeEqual(actual, stored);
  }
}
