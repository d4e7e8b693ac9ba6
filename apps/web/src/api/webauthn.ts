import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';

/** The browser's fingerprint (WebAuthn) dialog failed: cancelled, timed out, or no authenticator. */
export class CeremonyError extends Error {
  /** The authenticator is already registered to this account (excludeCredentials matched). */
  readonly alreadyRegistered: boolean;
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : 'webauthn ceremony failed', { cause });
    this.name = 'CeremonyError';
    const code = (cause as { code?: unknown } | null)?.code;
    this.alreadyRegistered = code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || (cause instanceof Error && cause.name === 'InvalidStateError');
  }
}

/** Whether this browser can use fingerprints here (WebAuthn needs a secure context). */
export function fingerprintSupported(): boolean {
  return typeof window !== 'undefined' && window.isSecureContext && typeof window.PublicKeyCredential === 'function';
}

// The WebAuthn helper is loaded only when a fingerprint is used, not with the sign-in screen.
const loadWebauthn = () => import('@simplewebauthn/browser');

/** Asks the authenticator for an assertion with the server's options; the JSON to send back. */
export async function createAssertion(options: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { startAuthentication } = await loadWebauthn();
  try {
    const response = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
    return response as unknown as Record<string, unknown>;
  } catch (cause) {
    throw new CeremonyError(cause);
  }
}

/** Asks the authenticator to create a credential with the server's options; the JSON to send back. */
export async function createCredential(options: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { startRegistration } = await loadWebauthn();
  try {
    const response = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
    return response as unknown as Record<string, unknown>;
  } catch (cause) {
    throw new CeremonyError(cause);
  }
}
