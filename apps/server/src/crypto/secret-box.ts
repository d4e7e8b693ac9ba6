import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** What a sealed value starts with: the format and its version, so a future format can sit beside it. */
export const SEALED_PREFIX = 'sealed:v1:';

/** The kinds of secret sealed in the database; each gets its own key, so one can never be opened as another. */
export type SecretPurpose = 'totp' | 'share-key' | 'webhook-secret';

/**
 * Seals secrets the server must read back (authenticator secrets, share keys, outgoing
 * webhook signing secrets) before they reach the database: AES-256-GCM under a key per
 * purpose, derived by HKDF-SHA-256 from the server secret. A sealed value is
 * `sealed:v1:<iv>.<tag>.<ciphertext>` (base64url) and is bound to its row's id (the
 * additional data), so a copy of the database alone reveals nothing and a value moved to
 * another row does not open.
 */
export class SecretBox {
  private readonly keys = new Map<SecretPurpose, Buffer>();

  constructor(private readonly serverSecret: string) {
    if (serverSecret.length < 32) throw new Error('the server secret must be at least 32 characters');
  }

  /** True when `value` is already in the sealed format (start-up conversion skips it). */
  static isSealed(value: string): boolean {
    return value.startsWith(SEALED_PREFIX);
  }

  seal(purpose: SecretPurpose, plaintext: string, rowId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keyOf(purpose), iv);
    cipher.setAAD(Buffer.from(rowId));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${SEALED_PREFIX}${[iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.')}`;
  }

  /** The plaintext; throws when the value was not sealed with this secret, purpose and row. */
  open(purpose: SecretPurpose, sealed: string, rowId: string): string {
    if (!SecretBox.isSealed(sealed)) throw new Error(`not a sealed ${purpose} value`);
    const [iv, tag, body] = sealed.slice(SEALED_PREFIX.length).split('.');
    if (!iv || !tag || body === undefined) throw new Error(`malformed sealed ${purpose} value`);
    const decipher = createDecipheriv('aes-256-gcm', this.keyOf(purpose), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(rowId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  private keyOf(purpose: SecretPurpose): Buffer {
    let key = this.keys.get(purpose);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', this.serverSecret, 'bogwan sealed secrets', `bogwan ${purpose}`, 32));
      this.keys.set(purpose, key);
    }
    return key;
  }
}
