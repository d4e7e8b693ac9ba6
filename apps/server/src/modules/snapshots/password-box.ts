import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const CONTEXT = Buffer.from('bogwan snapshot repository password');

/**
 * Seals repository passwords for the database: AES-256-GCM under a key derived (HKDF-
 * SHA-256) from the server secret, so a copy of the database alone does not reveal them.
 * Each sealed value is `v1.<iv>.<tag>.<ciphertext>` (base64url), bound to the plan id.
 */
export class PasswordBox {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', serverSecret, 'bogwan', CONTEXT, 32));
  }

  seal(password: string, planId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(planId));
    const body = Buffer.concat([cipher.update(password, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  /** The password, or throws when the value was not sealed by this secret for this plan. */
  open(sealed: string, planId: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('unknown sealed password format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(planId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
