import {
  type AuthenticatorTransportFuture,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { conflict, unauthorized } from '../../errors.js';
import { isUniqueViolation } from '../auth/setup.repo.js';
import { newId } from '../../ids.js';
import type { UserRow } from '../users/users.repo.js';
import type { WebauthnRepo } from './webauthn.repo.js';

/** The relying party: who the browser thinks it talks to. */
export interface RelyingParty {
  id: string;
  origin: string;
}

const TIMEOUT_MS = 30_000;
const CHALLENGE_TTL_MS = 120_000;
export const WEBAUTHN_CHALLENGE_TTL_SECONDS = CHALLENGE_TTL_MS / 1000;

type Purpose = 'register' | 'login' | 'first';

/**
 * Fingerprint sign-in (WebAuthn): registration of cross-platform authenticators with
 * ES256 (-7) and direct attestation, and sign-in with a registered credential. Every
 * ceremony's challenge is stored server-side, bound to the browser by a cookie, and
 * usable once.
 */
export class WebauthnService {
  constructor(private readonly repo: WebauthnRepo) {}

  async credentialCount(userId: string): Promise<number> {
    return this.repo.countOfUser(userId);
  }

  /** Options to register a new credential for `user`; answers the challenge id for the cookie. */
  async registrationOptions(user: UserRow, rp: RelyingParty, purpose: Purpose = 'register') {
    const existing = await this.repo.listOfUser(user.id);
    const options = await generateRegistrationOptions({
      rpName: 'Bogwan',
      rpID: rp.id,
      userName: user.email,
      userDisplayName: user.name,
      userID: new TextEncoder().encode(user.id),
      timeout: TIMEOUT_MS,
      attestationType: 'direct',
      supportedAlgorithmIDs: [-7],
      authenticatorSelection: { authenticatorAttachment: 'cross-platform', residentKey: 'preferred', userVerification: 'preferred' },
      excludeCredentials: existing.map((c) => ({ id: c.id, transports: splitTransports(c.transports) })),
    });
    const challengeId = await this.saveChallenge(user.id, options.challenge, purpose);
    return { options: options as unknown as Record<string, unknown>, challengeId };
  }

  /** Options to sign in; with no account, options that no credential can satisfy (nothing is revealed). */
  async authenticationOptions(user: UserRow | undefined, rp: RelyingParty) {
    const credentials = user ? await this.repo.listOfUser(user.id) : [];
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      timeout: TIMEOUT_MS,
      userVerification: 'preferred',
      allowCredentials: credentials.map((c) => ({ id: c.id, transports: splitTransports(c.transports) })),
    });
    const challengeId = await this.saveChallenge(user?.id ?? null, options.challenge, 'login');
    return { options: options as unknown as Record<string, unknown>, challengeId };
  }

  /** Verifies an attestation against the challenge of the cookie and stores the credential. */
  async register(user: UserRow, challengeId: string | undefined, response: unknown, rp: RelyingParty, purpose: Purpose = 'register') {
    const challenge = await this.takeChallenge(challengeId, user.id, purpose);
    let verification;
    try {
      verification = await verifyRegistrationResponse({
        response: response as Parameters<typeof verifyRegistrationResponse>[0]['response'],
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: false,
      });
    } catch {
      throw unauthorized('login_failure_fingerprint');
    }
    if (!verification.verified || !verification.registrationInfo) throw unauthorized('login_failure_fingerprint');
    const { credential } = verification.registrationInfo;
    // The same authenticator again (a browser that ignored excludeCredentials, or two
    // registrations at once): the credential id is unique, the second one is told so.
    try {
      await this.repo.insertCredential({
        id: credential.id,
        user_id: user.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: (credential.transports ?? []).join(','),
        created_at: new Date().toISOString(),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('fingerprint_already_registered');
      throw error;
    }
  }

  /** Verifies an assertion by one of the user's credentials. */
  async authenticate(user: UserRow, challengeId: string | undefined, response: { id?: unknown }, rp: RelyingParty): Promise<void> {
    const challenge = await this.takeChallenge(challengeId, user.id, 'login');
    const credential = (await this.repo.listOfUser(user.id)).find((c) => c.id === response.id);
    if (!credential) throw unauthorized('login_failure_fingerprint');
    let verification;
    try {
      verification = await verifyAuthenticationResponse({
        response: response as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          id: credential.id,
          publicKey: Buffer.from(credential.public_key, 'base64url'),
          counter: credential.counter,
          transports: splitTransports(credential.transports),
        },
        requireUserVerification: false,
      });
    } catch {
      throw unauthorized('login_failure_fingerprint');
    }
    if (!verification.verified) throw unauthorized('login_failure_fingerprint');
    await this.repo.updateCounter(credential.id, verification.authenticationInfo.newCounter);
  }

  private async saveChallenge(userId: string | null, challenge: string, purpose: Purpose): Promise<string> {
    const id = newId();
    await this.repo.insertChallenge({
      id,
      user_id: userId,
      challenge,
      purpose,
      expires_at: new Date(Date.now() + CHALLENGE_TTL_MS).toISOString(),
    });
    return id;
  }

  private async takeChallenge(id: string | undefined, userId: string, purpose: Purpose): Promise<string> {
    const row = id ? await this.repo.takeChallenge(id) : undefined;
    if (!row || row.user_id !== userId || row.purpose !== purpose || new Date(row.expires_at) <= new Date()) {
      throw unauthorized('login_failure_fingerprint');
    }
    return row.challenge;
  }
}

function splitTransports(value: string): AuthenticatorTransportFuture[] {
  return value ? (value.split(',') as AuthenticatorTransportFuture[]) : [];
}
