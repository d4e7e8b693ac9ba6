import { createHash } from 'node:crypto';
import {
  authResponseSchema,
  messageResponseSchema,
  webauthnLoginOptionsRequestSchema,
  webauthnLoginOptionsResponseSchema,
  webauthnLoginVerifyRequestSchema,
  webauthnOptionsSchema,
  webauthnRegisterRequestSchema,
} from '@bogwan/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { forbidden, unauthorized } from '../../errors.js';
import type { RoutePolicy } from '../../http/policy.js';
import { accountActor } from '../audit/audit-context.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { AuthService } from '../auth/auth.service.js';
import type { LoginGuard } from '../auth/login-guard.js';
import type { Reauthentication } from '../auth/reauth.js';
import { clientOf, setRefreshCookie } from '../sessions/session-cookies.js';
import type { UserRow, UsersRepo } from '../users/users.repo.js';
import { type RelyingParty, WEBAUTHN_CHALLENGE_TTL_SECONDS, type WebauthnService } from './webauthn.service.js';

const category = 'auth';
const policies = {
  generate: { category, name: 'fingerprint_options', description: 'Options to register a fingerprint (WebAuthn)', level: 1, licenceExempt: true },
  register: {
    category,
    name: 'fingerprint_register',
    description: 'Register a fingerprint (WebAuthn attestation); asks for the current password',
    level: 1,
    licenceExempt: true,
  },
  loginOptions: { category, name: 'fingerprint_login_options', description: 'Options to sign in with a fingerprint', level: 0, licenceExempt: true },
  loginVerify: { category, name: 'fingerprint_login', description: 'Sign in with a fingerprint', level: 0, licenceExempt: true },
} satisfies Record<string, RoutePolicy>;

const WEBAUTHN_COOKIE = 'bogwan_webauthn';

export interface WebauthnRoutesDeps {
  webauthn: WebauthnService;
  auth: AuthService;
  users: UsersRepo;
  guard: LoginGuard;
  publicUrl: string | undefined;
  refreshTtlSeconds: number;
  /** The current password, asked again before a fingerprint is added. */
  reauth: Reauthentication;
  audit: AuditRecorder;
}

export async function webauthnRoutes(app: FastifyInstance, deps: WebauthnRoutesDeps): Promise<void> {
  const { webauthn, auth, users, guard } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  /** The configured public address, else the address this request came to. */
  const relyingParty = (request: FastifyRequest): RelyingParty => {
    const origin = deps.publicUrl ?? `${request.protocol}://${request.host}`;
    return { origin, id: new URL(origin).hostname };
  };
  const bindChallenge = (request: FastifyRequest, reply: FastifyReply, id: string) =>
    reply.setCookie(WEBAUTHN_COOKIE, id, {
      path: '/api/auth',
      httpOnly: true,
      sameSite: 'strict',
      secure: request.protocol === 'https',
      maxAge: WEBAUTHN_CHALLENGE_TTL_SECONDS,
    });

  r.post(
    '/api/auth/generate',
    { config: { policy: policies.generate }, schema: { tags, response: { 200: webauthnOptionsSchema } } },
    async (request, reply) => {
      const { options, challengeId } = await webauthn.registrationOptions(request.user!, relyingParty(request));
      bindChallenge(request, reply, challengeId);
      return options;
    },
  );

  r.put(
    '/api/auth',
    {
      config: { policy: policies.register },
      schema: { tags, body: webauthnRegisterRequestSchema, response: { 200: messageResponseSchema } },
    },
    async (request) => {
      const { _id, credentialId, response, currentPassword } = request.body;
      if (_id !== request.user!.id) throw forbidden();
      await deps.reauth.confirm(request.user!, currentPassword, request.ip, 'register a fingerprint');
      if (response.id !== credentialId) throw unauthorized('login_failure_fingerprint');
      await webauthn.register(request.user!, request.cookies[WEBAUTHN_COOKIE], response, relyingParty(request));
      await deps.audit.record({
        action: 'auth.factor_change',
        target: { kind: 'account', id: request.user!.id },
        params: { factor: 'fingerprint', change: 'register' },
      });
      return { success: true, message: 'register_fingerprint_complete_message' };
    },
  );

  r.post(
    '/api/auth/webauthn/login',
    {
      config: { policy: policies.loginOptions },
      schema: { tags, body: webauthnLoginOptionsRequestSchema, response: { 200: webauthnLoginOptionsResponseSchema } },
    },
    async (request, reply) => {
      const user = await users.findByEmail(request.body.email);
      await guard.assertMayTry(request.ip, user);
      const rp = relyingParty(request);
      // The first fingerprint sign-in of an account registers one (after the password, in
      // verify). An unknown email gets the same answer, so it does not reveal whether the
      // account exists; the password step then fails like a wrong password.
      if (!user || (await hasNoCredential(deps, user.id))) {
        const { options, challengeId } = await webauthn.registrationOptions(user ?? stranger(request.body.email), rp, 'first');
        bindChallenge(request, reply, challengeId);
        return { register: true, options };
      }
      const { options, challengeId } = await webauthn.authenticationOptions(user, rp);
      bindChallenge(request, reply, challengeId);
      return { register: false, options };
    },
  );

  r.post(
    '/api/auth/webauthn/verify',
    { config: { policy: policies.loginVerify }, schema: { tags, body: webauthnLoginVerifyRequestSchema, response: { 200: authResponseSchema } } },
    async (request, reply) => {
      const { email, response, password } = request.body;
      const client = clientOf(request);
      const rp = relyingParty(request);
      const challengeId = request.cookies[WEBAUTHN_COOKIE];
      reply.clearCookie(WEBAUTHN_COOKIE, { path: '/api/auth' });
      const claimed = await users.findByEmail(email);
      // Every refusal below is recorded as a failed (or locked) sign-in.
      const session = await auth.refusalsRecorded(email, claimed, 'fingerprint', client, async () => {
        let user = claimed;
        await guard.assertMayTry(client.ip, user);
        if (!user) {
          // Same work and answer as a wrong password for an account without a fingerprint.
          if (password !== undefined) await auth.checkPassword(email, password, client);
          throw unauthorized('login_failure_fingerprint');
        }
        try {
          if (password !== undefined && (await hasNoCredential(deps, user.id))) {
            user = await auth.checkPassword(email, password, client);
            await webauthn.register(user, challengeId, response, rp, 'first');
            const factor = {
              action: 'auth.factor_change',
              actor: accountActor(user),
              target: { kind: 'account', id: user.id },
              params: { factor: 'fingerprint', change: 'register_first' },
            } as const;
            await deps.audit.record(factor);
          } else {
            await webauthn.authenticate(user, challengeId, response, rp);
          }
        } catch (error) {
          if ((error as { messageKey?: string }).messageKey === 'login_failure_fingerprint') await guard.failed(client.ip, user);
          throw error;
        }
        return auth.finish(user, client, 'fingerprint');
      });
      setRefreshCookie(request, reply, session.refreshToken, deps.refreshTtlSeconds);
      return session.auth;
    },
  );
}

/** A stand-in account for an unknown email: its options look like a real first registration. */
function stranger(email: string): UserRow {
  const id = createHash('sha256').update(`bogwan-webauthn:${email}`).digest('hex').slice(0, 32);
  return { id, email, name: email.split('@')[0] ?? email } as UserRow;
}

async function hasNoCredential(deps: WebauthnRoutesDeps, userId: string): Promise<boolean> {
  return (await deps.webauthn.credentialCount(userId)) === 0;
}
