import type { FastifyReply, FastifyRequest } from 'fastify';

/** The refresh token's cookie: httpOnly, SameSite=Strict, sent only to /api/auth. */
export const REFRESH_COOKIE = 'bogwan_refresh';
/** Binds a second-factor step or a WebAuthn ceremony to the browser that started it. */
export const CHALLENGE_COOKIE = 'bogwan_challenge';
const AUTH_PATH = '/api/auth';

function base(request: FastifyRequest) {
  return { path: AUTH_PATH, httpOnly: true, sameSite: 'strict' as const, secure: request.protocol === 'https' };
}

export function setRefreshCookie(request: FastifyRequest, reply: FastifyReply, token: string, ttlSeconds: number): void {
  reply.setCookie(REFRESH_COOKIE, token, { ...base(request), maxAge: ttlSeconds });
}

export function clearRefreshCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE, base(request));
}

export function setChallengeCookie(request: FastifyRequest, reply: FastifyReply, id: string, ttlSeconds: number): void {
  reply.setCookie(CHALLENGE_COOKIE, id, { ...base(request), maxAge: ttlSeconds });
}

export function clearChallengeCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(CHALLENGE_COOKIE, base(request));
}

export function clientOf(request: FastifyRequest) {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' };
}
