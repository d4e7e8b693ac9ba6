import crypto, { type KeyObject } from 'node:crypto';
import { z } from 'zod';

/**
 * Licence keys: `BOGWAN1.<base64url(JSON payload)>.<base64url(Ed25519 signature)>`.
 * The signature covers the payload's bytes exactly as they appear (base64url-decoded),
 * so the key needs no canonical JSON. Only the vendor holds the private key; the server
 * carries the public key below and checks every key against it.
 */
export const LICENCE_KEY_PREFIX = 'BOGWAN1';

/** The vendor's public key, built in. `BOGWAN_LICENSE_PUBLIC_KEY` replaces it (tests, another vendor key). */
export const BUILT_IN_LICENCE_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEA8yUINuakI+j4W1WNxe8SLqY587yGhAZm9mkBUDzpVy0=
-----END PUBLIC KEY-----
`;

/** A real calendar day written YYYY-MM-DD (2027-02-30 is refused). */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((v) => {
    const time = Date.parse(`${v}T00:00:00Z`);
    return !Number.isNaN(time) && new Date(time).toISOString().startsWith(v);
  });

/** What a key says. `user` is the number of accounts (seats) it allows. */
export const licencePayloadSchema = z.object({
  org: z.string().trim().min(1).max(200),
  sen: z.string().trim().min(1).max(100),
  serverId: z.string().trim().min(1).max(100),
  type: z.string().trim().min(1).max(50),
  user: z.number().int().min(1).max(1_000_000),
  purchase: isoDate,
  maintenance: isoDate,
  /** Issued at, seconds since the epoch. */
  iat: z.number().int().nonnegative(),
});
export type LicencePayload = z.infer<typeof licencePayloadSchema>;

/** A public key from PEM text or base64 SPKI DER; throws unless it is an Ed25519 key. */
export function parseLicencePublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  const key = trimmed.startsWith('-----BEGIN')
    ? crypto.createPublicKey(trimmed)
    : crypto.createPublicKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('not an Ed25519 public key');
  return key;
}

/** The configured public key, or the built-in one. */
export function licencePublicKey(configured: string | undefined): KeyObject {
  return parseLicencePublicKey(configured ?? BUILT_IN_LICENCE_PUBLIC_KEY);
}

/** The first moment after the maintenance day (dates are whole UTC days, the last one included). */
export function maintenanceEnd(payload: Pick<LicencePayload, 'maintenance'>): Date {
  return new Date(Date.parse(`${payload.maintenance}T00:00:00Z`) + 86_400_000);
}

/**
 * The payload of a key whose signature is good, or null for anything else (wrong
 * prefix, bad base64, bad JSON, missing fields, signature by another key). Binding to
 * a server id and dates are the caller's rules.
 */
export function readLicenceKey(key: string, publicKey: KeyObject): LicencePayload | null {
  const parts = key.trim().split('.');
  if (parts.length !== 3 || parts[0] !== LICENCE_KEY_PREFIX) return null;
  const [, payloadPart, signaturePart] = parts as [string, string, string];
  const base64url = /^[A-Za-z0-9_-]+$/;
  if (!base64url.test(payloadPart) || !base64url.test(signaturePart)) return null;
  const payloadBytes = Buffer.from(payloadPart, 'base64url');
  const signature = Buffer.from(signaturePart, 'base64url');
  if (signature.length !== 64) return null;
  let good = false;
  try {
    good = crypto.verify(null, payloadBytes, publicKey, signature);
  } catch {
    return null;
  }
  if (!good) return null;
  let json: unknown;
  try {
    json = JSON.parse(payloadBytes.toString('utf8'));
  } catch {
    return null;
  }
  const parsed = licencePayloadSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** Signs a payload into a key (vendor side: the CLI and tests). */
export function issueLicenceKey(payload: LicencePayload, privateKey: KeyObject | string): string {
  const checked = licencePayloadSchema.parse(payload);
  const bytes = Buffer.from(JSON.stringify(checked), 'utf8');
  const key = typeof privateKey === 'string' ? crypto.createPrivateKey(privateKey) : privateKey;
  const signature = crypto.sign(null, bytes, key);
  return `${LICENCE_KEY_PREFIX}.${bytes.toString('base64url')}.${signature.toString('base64url')}`;
}
