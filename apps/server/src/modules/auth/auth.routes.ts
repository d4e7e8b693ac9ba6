import {
  authResponseSchema,
  factorsSchema,
  loginRequestSchema,
  loginResponseSchema,
  otpQrRequestSchema,
  otpQrResponseSchema,
  refreshResponseSchema,
  sessionUserRequestSchema,
  setupRequestSchema,
  setupStatusSchema,
  updateFactorsRequestSchema,
  verifyOtpRequestSchema,
  verifyOtpResponseSchema,
} from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unauthorized } from '../../errors.js';
import { type AuthorizeDeps, authenticate } from '../../http/authorize.js';
import type { RoutePolicy } from '../../http/policy.js';
import type { MfaService } from '../mfa/mfa.service.js';
import { CHALLENGE_TTL_SECONDS } from '../mfa/mfa.service.js';
import {
  CHALLENGE_COOKIE,
  REFRESH_COOKIE,
  clearChallengeCookie,
  clearRefreshCookie,
  clientOf,
  setChallengeCookie,
  setRefreshCookie,
} from '../sessions/session-cookies.js';
import type { IssuedSession, SessionsService } from '../sessions/sessions.service.js';
import type { AuthService } from './auth.service.js';
import type { Reauthentication } from './reauth.js';

const category = 'auth';
const open = { level: 0, licenceExempt: true } as const;
const policies = {
  setupStatus: { category, name: 'setup_status', description: 'Whether the first account still has to be created', ...open },
  setup: { category, name: 'setup', description: 'Create the first account with the one-time setup token', ...open },
  login: { category, name: 'login', description: 'Sign in with email and password', ...open },
  verifyOtp: {
    category,
    name: 'verify_otp',
    description: 'Finish a sign-in with its second-factor code, or (signed in) confirm an authenticator app',
    ...open,
  },
  otpQr: {
    category,
    name: 'otp_register',
    description: 'Start registering an authenticator app (QR code); asks for the current password',
    level: 1,
    licenceExempt: true,
  },
  refresh: { category, name: 'refresh', description: 'Exchange the refresh cookie for a new access token', ...open },
  logout: { category, name: 'logout', description: 'Sign out: the session and its tokens stop working', ...open },
  factors: { category, name: 'factors', description: "The signed-in user's second factors", level: 1, licenceExempt: true },
  setFactors: {
    category,
    name: 'factors_update',
    description: 'Choose the second factor for password sign-in; asks for the current password',
    level: 1,
    licenceExempt: true,
  },
} satisfies Record<string, RoutePolicy>;

export interface AuthRoutesDeps {
  auth: AuthService;
  mfa: MfaService;
  sessions: SessionsService;
  authorize: AuthorizeDeps;
  refreshTtlSeconds: number;
  /** The current password, asked again before the second factor changes. */
  reauth: Reauthentication;
}

export async function authRoutes(app: FastifyInstance, deps: AuthRoutesDeps): Promise<void> {
  const { auth, mfa, sessions } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  /** Sets the refresh cookie of a new session and answers `{user, token}`. */
  const issue = (request: Parameters<typeof setRefreshCookie>[0], reply: Parameters<typeof setRefreshCookie>[1], session: IssuedSession) => {
    setRefreshCookie(request, reply, session.refreshToken, deps.refreshTtlSeconds);
    return session.auth;
  };

  r.get('/api/auth/setup', { config: { policy: policies.setupStatus }, schema: { tags, response: { 200: setupStatusSchema } } }, () => auth.setupStatus());

  r.post(
    '/api/auth/setup',
    { config: { policy: policies.setup }, schema: { tags, body: setupRequestSchema, response: { 200: authResponseSchema } } },
    async (request, reply) => issue(request, reply, await auth.setup(request.body, clientOf(request))),
  );

  r.post(
    '/api/auth/login',
    { config: { policy: policies.login }, schema: { tags, body: loginRequestSchema, response: { 200: loginResponseSchema } } },
    async (request, reply) => {
      const outcome = await auth.login(request.body, clientOf(request));
      if (outcome.kind === 'mfa') {
        setChallengeCookie(request, reply, outcome.challengeId, CHALLENGE_TTL_SECONDS);
        return outcome.challenge;
      }
      return issue(request, reply, outcome.session);
    },
  );

  r.post(
    '/api/auth/verify/otp',
    { config: { policy: policies.verifyOtp }, schema: { tags, body: verifyOtpRequestSchema, response: { 200: verifyOtpResponseSchema } } },
    async (request, reply) => {
      const { email, otp, login } = request.body;
      if (login) {
        const session = await auth.completeSecondFactor(request.cookies[CHALLENGE_COOKIE], email, otp, clientOf(request));
        clearChallengeCookie(request, reply);
        return { success: true, ...issue(request, reply, session) };
      }
      const signedIn = await authenticate(request, deps.authorize);
      if (!signedIn) throw unauthorized();
      const ok = await mfa.confirmOtpRegistration(signedIn.user, email, otp);
      return ok ? { success: true, message: 'register_otp_app_complete_message' } : { success: false, message: 'login_failure_otp' };
    },
  );

  r.post(
    '/api/auth/login/otp',
    { config: { policy: policies.otpQr }, schema: { tags, body: otpQrRequestSchema, response: { 200: otpQrResponseSchema } } },
    async (request) => {
      await deps.reauth.confirm(request.user!, request.body.currentPassword, request.ip, 'start a new authenticator app');
      return mfa.startOtpRegistration(request.user!, request.body.email);
    },
  );

  r.post(
    '/api/auth/refresh',
    { config: { policy: policies.refresh }, schema: { tags, body: sessionUserRequestSchema, response: { 200: refreshResponseSchema } } },
    async (request, reply) => {
      try {
        const { token, refreshToken } = await sessions.refresh(request.cookies[REFRESH_COOKIE], request.body._id);
        if (refreshToken) setRefreshCookie(request, reply, refreshToken, deps.refreshTtlSeconds);
        return { token };
      } catch (error) {
        clearRefreshCookie(request, reply);
        throw error;
      }
    },
  );

  r.post(
    '/api/auth/logout',
    { config: { policy: policies.logout }, schema: { tags, body: sessionUserRequestSchema.partial().optional() } },
    async (request, reply) => {
      const fromCookie = await sessions.sessionOf(request.cookies[REFRESH_COOKIE]);
      const fromToken = await authenticate(request, deps.authorize);
      for (const s of [fromCookie, fromToken && { sessionId: fromToken.sessionId, userId: fromToken.user.id }]) {
        if (s) await auth.logout(s.sessionId, s.userId, clientOf(request));
      }
      clearRefreshCookie(request, reply);
      return reply.code(204).send();
    },
  );

  r.get('/api/auth/factors', { config: { policy: policies.factors }, schema: { tags, response: { 200: factorsSchema } } }, (request) =>
    mfa.factors(request.user!),
  );

  r.put(
    '/api/auth/factors',
    { config: { policy: policies.setFactors }, schema: { tags, body: updateFactorsRequestSchema, response: { 200: factorsSchema } } },
    async (request) => {
      await deps.reauth.confirm(request.user!, request.body.currentPassword, request.ip, 'change the second factor');
      return mfa.setMethod(request.user!, request.body.mfa);
    },
  );
}
