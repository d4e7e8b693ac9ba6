import { type AuthResponse, apiCalls } from '@bogwan/contracts';
import { callApi } from '../../../api/client';

export interface FingerprintOptions {
  /** True when the account has no fingerprint yet: the options create one, and the password is needed. */
  register: boolean;
  options: Record<string, unknown>;
}

/** POST /api/auth/webauthn/login: assertion options, or creation options for a first fingerprint. */
export function getFingerprintOptions(email: string): Promise<FingerprintOptions> {
  return callApi(apiCalls.fingerprint_login_options, { body: { email } });
}

interface VerifyFingerprintInput {
  email: string;
  /** The browser's credential as JSON (an assertion, or a registration with `password`). */
  response: Record<string, unknown>;
  password?: string;
}

/** POST /api/auth/webauthn/verify: signs in with the credential the browser produced. */
export function verifyFingerprint(body: VerifyFingerprintInput): Promise<AuthResponse> {
  return callApi(apiCalls.fingerprint_login, { body });
}
