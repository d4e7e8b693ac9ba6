import { adminModeRequestSchema, adminModeResponseSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.js';
import type { RoutePolicy } from '../../http/policy.js';
import { verifyPassword } from '../auth/passwords.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { AttemptCountersRepo } from '../limits/attempt-counters.repo.js';
import { RateLimit } from '../limits/rate-limit.js';
import type { AdminMode } from './admin-mode.js';

const policies = {
  on: { category: 'setting', name: 'admin_mode', description: 'Turn on admin mode with one\u2019s own password (unlocks the cloud fields)', level: 2 },
  off: { category: 'setting', name: 'admin_mode_off', description: 'Turn admin mode off for this session (locks the cloud fields again)', level: 2 },
} satisfies Record<string, RoutePolicy>;

/** Password checks per account per 15 minutes; a right password clears the count. */
export const ADMIN_MODE_ATTEMPTS = 5;

export interface AdminModeRoutesDeps {
  audit: AuditRecorder;
  adminMode: AdminMode;
  /** Where the attempts are counted: the database, shared by every process. */
  attemptCounters: AttemptCountersRepo;
}

/**
 * `POST /api/setting/admin {password}` → `{success}`: checks the caller's own password
 * (never another account's). A wrong one answers `success: false`; after five tries in
 * 15 minutes the account is answered 429 until the window ends. `DELETE /api/setting/admin`
 * turns it off for the calling session. Each try is counted before the password is checked,
 * so parallel tries (on any process) check at most five.
 */
export async function adminModeRoutes(app: FastifyInstance, { audit, adminMode, attemptCounters }: AdminModeRoutesDeps): Promise<void> {
  const limiter = new RateLimit(attemptCounters, 'admin-mode', ADMIN_MODE_ATTEMPTS, 15 * 60_000);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/setting/admin',
    { config: { policy: policies.on }, schema: { tags: ['setting'], body: adminModeRequestSchema, response: { 200: adminModeResponseSchema } } },
    async (request) => {
      const user = request.user!;
      if (!(await limiter.hit(user.id))) {
        await audit.record({ action: 'admin_mode.refused', outcome: 'refused', reason: 'too_many_requests_message', target: { kind: 'account', id: user.id } });
        throw new AppError(429, 'too_many_requests_message');
      }
      const success = await verifyPassword(user.password_hash, request.body.password);
      if (success) {
        await limiter.reset(user.id);
        await adminMode.turnOn(request.sessionId!);
      }
      const target = { kind: 'account' as const, id: user.id };
      await audit.record(
        success ? { action: 'admin_mode.on', target } : { action: 'admin_mode.refused', outcome: 'refused', reason: 'rules_password_not_match', target },
      );
      return { success };
    },
  );

  r.delete(
    '/api/setting/admin',
    { config: { policy: policies.off }, schema: { tags: ['setting'], response: { 200: adminModeResponseSchema } } },
    async (request) => {
      await adminMode.turnOff(request.sessionId!);
      await audit.record({ action: 'admin_mode.off', target: { kind: 'account', id: request.user!.id } });
      return { success: true };
    },
  );
}
