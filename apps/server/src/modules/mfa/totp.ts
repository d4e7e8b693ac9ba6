import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

const ISSUER = 'Bogwan';

/** A new authenticator secret (base32). */
export function newTotpSecret(): string {
  return generateSecret();
}

/** The QR code (PNG data URL) an authenticator app scans for this secret. */
export function totpQrCode(secret: string, account: string): Promise<string> {
  return QRCode.toDataURL(generateURI({ issuer: ISSUER, label: account, secret }), { margin: 1, width: 240 });
}

/**
 * The time step a code matched (one step of clock drift either way), or null. Steps at
 * or before `afterStep` are refused: a code is accepted once.
 */
export async function matchTotp(secret: string, code: string, afterStep: number): Promise<number | null> {
  try {
    const result = await verify({ secret, token: code, epochTolerance: 30, afterTimeStep: afterStep });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    return null;
  }
}
