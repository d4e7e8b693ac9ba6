import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditActorKind } from '@bogwan/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Who acted, as a record stores it. */
export interface AuditActor {
  kind: AuditActorKind;
  /** Account id, share link id, app password id or webhook id; null for the system. */
  id: string | null;
  /** The account behind the actor, if any (an app password's owner). */
  accountId: string | null;
  /** Name and e-mail (or a link's or webhook's name) at the time; looked up when omitted for an account. */
  label?: string | null;
}

/** What a request knows about its client and actor. */
export interface AuditClient {
  ip: string | null;
  userAgent: string | null;
  /** Set by code that authenticates otherwise than by the access token (share links, app passwords, webhooks). */
  actor?: AuditActor;
  /** The request, whose signed-in account (`request.user`) is the actor when none was set. */
  request?: FastifyRequest;
}

const storage = new AsyncLocalStorage<AuditClient>();

/** The server itself: schedules, housekeeping, the command line. */
export const SYSTEM_ACTOR: AuditActor = { kind: 'system', id: null, accountId: null, label: null };

/** An account acting for itself. */
export function accountActor(user: { id: string; name?: string; email?: string }): AuditActor {
  return { kind: 'account', id: user.id, accountId: user.id, label: user.email !== undefined ? `${user.name ?? ''} <${user.email}>` : undefined };
}

const USER_AGENT_MAX = 512;

/**
 * The request context of the audit trail, so code deep in a service (which only gets the
 * `user`) records the right client address, user agent and actor without threading them.
 */
export const auditContext = {
  /** The current request's client and actor, or undefined outside a request (jobs). */
  current(): AuditClient | undefined {
    return storage.getStore();
  },
  /** The actor of the current context: the one set, else the signed-in account, else the system. */
  actor(): AuditActor {
    const store = storage.getStore();
    if (store?.actor) return store.actor;
    const user = store?.request?.user;
    return user ? accountActor(user) : SYSTEM_ACTOR;
  },
  /** Names the actor of the rest of this request (a share-link visitor, an app password, a webhook). */
  setActor(actor: AuditActor): void {
    const store = storage.getStore();
    if (store) store.actor = actor;
  },
  /** Runs `fn` with the given client (background jobs that act for someone). */
  run<T>(client: AuditClient, fn: () => T): T {
    return storage.run({ ...client }, fn);
  },
};

/**
 * Opens the audit context of every request: client address (after trust-proxy), user
 * agent, and the request itself (its `user` is read when a record is written, so the
 * authorization hook may run before or after this one).
 */
export function registerAuditContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const userAgent = request.headers['user-agent'];
    storage.run({ ip: request.ip ?? null, userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null, request }, done);
  });
}
