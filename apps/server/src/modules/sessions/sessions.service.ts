import { createHash, randomBytes } from 'node:crypto';
import type { AuthResponse } from '@bogwan/contracts';
import { unauthorized } from '../../errors.js';
import { newId } from '../../ids.js';
import type { AccessTokens } from '../auth/access-token.js';
import { toUserResponse } from '../users/users.presenter.js';
import type { UserRow } from '../users/users.repo.js';
import type { SessionsRepo } from './sessions.repo.js';

/** A second request with an already-rotated token within this window is a race between tabs, not theft. */
const ROTATION_GRACE_MS = 10_000;

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

/** A new session's answer plus the refresh token for the cookie. */
export interface IssuedSession {
  auth: AuthResponse;
  refreshToken: string;
  sessionId: string;
}

/** Whose live connections to close: one session's, or every session of a user but `except`. */
export type EndedSessions = { sessionId: string } | { userId: string; except?: string };

/** The open sockets of sessions; closed when their session ends (the realtime gateway). */
export interface SessionSockets {
  endSessions(ended: EndedSessions): void;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Sessions: a signed-in device holds a refresh token (httpOnly cookie) that is rotated
 * on every use; presenting a rotated token again revokes the whole session (family).
 * Access tokens name their session, so revoking it refuses them at once, and its open
 * sockets are closed.
 */
export class SessionsService {
  constructor(
    private readonly repo: SessionsRepo,
    private readonly tokens: AccessTokens,
    private readonly refreshTtlSeconds: number,
    private readonly sockets: SessionSockets,
  ) {}

  /** Opens a session for a user who just proved who they are. */
  async start(user: UserRow, client: ClientInfo): Promise<IssuedSession> {
    const now = new Date();
    const sessionId = newId(now.getTime());
    const refreshToken = randomBytes(32).toString('base64url');
    await this.repo.create(
      {
        id: sessionId,
        user_id: user.id,
        created_at: now.toISOString(),
        last_used_at: now.toISOString(),
        revoked_at: null,
        ip: client.ip,
        user_agent: client.userAgent.slice(0, 512),
      },
      this.tokenRow(refreshToken, sessionId, now),
    );
    const token = await this.tokens.sign({ sub: user.id, sid: sessionId });
    return { auth: { user: toUserResponse(user), token }, refreshToken, sessionId };
  }

  /**
   * Exchanges a refresh token for a new access token and a new refresh token. `userId`
   * is what the client claims; it must be the token's owner.
   */
  async refresh(presented: string | undefined, userId: string): Promise<{ token: string; refreshToken?: string }> {
    if (!presented) throw unauthorized();
    const row = await this.repo.findToken(hashToken(presented));
    const now = new Date();
    if (!row || row.revoked_at !== null || row.user_id !== userId || row.status !== 'ACTIVE' || new Date(row.expires_at) <= now) {
      throw unauthorized();
    }
    if (row.used_at !== null) {
      if (now.getTime() - new Date(row.used_at).getTime() <= ROTATION_GRACE_MS) {
        // Two tabs refreshed with the same cookie; the other already holds the successor.
        return { token: await this.tokens.sign({ sub: row.user_id, sid: row.session_id }) };
      }
      await this.end(row.session_id);
      throw unauthorized();
    }
    const refreshToken = randomBytes(32).toString('base64url');
    const rotated = await this.repo.rotate(row.token_hash, this.tokenRow(refreshToken, row.session_id, now), now.toISOString());
    if (!rotated) return { token: await this.tokens.sign({ sub: row.user_id, sid: row.session_id }) };
    return { token: await this.tokens.sign({ sub: row.user_id, sid: row.session_id }), refreshToken };
  }

  /** The session a refresh token belongs to, if any (for logout without an access token). */
  async sessionOf(presented: string | undefined): Promise<{ sessionId: string; userId: string } | undefined> {
    if (!presented) return undefined;
    const row = await this.repo.findToken(hashToken(presented));
    return row ? { sessionId: row.session_id, userId: row.user_id } : undefined;
  }

  async end(sessionId: string): Promise<void> {
    await this.repo.revoke(sessionId, new Date().toISOString());
    this.sockets.endSessions({ sessionId });
  }

  /** Ends every session of the user except `keep` (password change, block, delete). */
  async endAllOf(userId: string, keep?: string): Promise<void> {
    await this.repo.revokeAllOfUser(userId, new Date().toISOString(), keep);
    this.sockets.endSessions({ userId, except: keep });
  }

  private tokenRow(token: string, sessionId: string, now: Date) {
    return {
      token_hash: hashToken(token),
      session_id: sessionId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + this.refreshTtlSeconds * 1000).toISOString(),
      used_at: null,
    };
  }
}
