import { SignJWT, errors, jwtVerify } from 'jose';

const ALGORITHM = 'HS256';
const ISSUER = 'bogwan';
const AUDIENCE = 'bogwan-api';
const TOKEN_TYPE = 'access';

export interface AccessClaims {
  /** User id. */
  sub: string;
  /** The session (refresh-token family) it belongs to; revoking the session refuses the token. */
  sid: string;
}

/** Verified claims, with the expiry (epoch seconds). */
export interface VerifiedClaims extends AccessClaims {
  exp: number;
}

/** Signs and verifies access tokens: HS256 only (pinned), issuer, audience, type and expiry checked. */
export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(claims: AccessClaims): Promise<string> {
    return new SignJWT({ sid: claims.sid, typ: TOKEN_TYPE })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }

  /** The claims of a valid token, or null for anything else (bad signature, alg, expiry, type). */
  async verify(token: string): Promise<VerifiedClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      if (payload.typ !== TOKEN_TYPE || typeof payload.sub !== 'string' || typeof payload.sid !== 'string') {
        return null;
      }
      return { sub: payload.sub, sid: payload.sid, exp: payload.exp ?? 0 };
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }
}
