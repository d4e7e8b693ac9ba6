import { createAdapter } from '@socket.io/redis-adapter';
import { SOCKET_EVENTS } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import { createClient } from 'redis';
import { Server, type Socket } from 'socket.io';
import type { AccessTokens } from '../modules/auth/access-token.js';
import type { SessionsRepo } from '../modules/sessions/sessions.repo.js';

export interface GatewayDeps {
  tokens: AccessTokens;
  sessions: SessionsRepo;
  /** With a Redis URL, events fan out to the sockets of every server process. */
  redisUrl: string | undefined;
}

/** Delivers events to a user's open sockets, on whichever server process they are. */
export interface Realtime {
  emitToUser(userId: string, event: string, payload: unknown): void;
}

const roomOf = (userId: string) => `user:${userId}`;

/**
 * socket.io on the API's port. A socket proves who it is with the access token in its
 * handshake (`auth.token`); a bare user id is never enough. It joins its user's room;
 * when the token expires the socket is told (`session_expired`) and closed, and the web
 * refreshes and reconnects.
 */
export async function startGateway(app: FastifyInstance, deps: GatewayDeps): Promise<Realtime> {
  const io = new Server(app.server, { path: '/socket.io', serveClient: false, cors: { origin: false } });
  const closers: (() => Promise<unknown>)[] = [];

  if (deps.redisUrl) {
    const pub = createClient({ url: deps.redisUrl });
    const sub = pub.duplicate();
    pub.on('error', (err) => app.log.error({ err }, 'redis (publish) error'));
    sub.on('error', (err) => app.log.error({ err }, 'redis (subscribe) error'));
    await Promise.all([pub.connect(), sub.connect()]);
    io.adapter(createAdapter(pub, sub));
    closers.push(() => pub.quit(), () => sub.quit());
  }

  io.use(async (socket, next) => {
    const token: unknown = socket.handshake.auth?.token;
    const claims = typeof token === 'string' ? await deps.tokens.verify(token) : null;
    if (!claims) return next(new Error('unauthorized'));
    const user = await deps.sessions.findUserOfOpenSession(claims.sub, claims.sid);
    if (!user || user.status !== 'ACTIVE') return next(new Error('unauthorized'));
    socket.data.userId = user.id;
    socket.data.expiresAt = claims.exp * 1000;
    next();
  });

  io.on('connection', (socket: Socket) => {
    void socket.join(roomOf(socket.data.userId as string));
    const ms = Math.max(0, (socket.data.expiresAt as number) - Date.now());
    const timer = setTimeout(() => {
      socket.emit(SOCKET_EVENTS.sessionExpired);
      socket.disconnect(true);
    }, ms);
    socket.on('disconnect', () => clearTimeout(timer));
  });

  app.addHook('preClose', async () => {
    io.disconnectSockets(true);
    await new Promise<void>((resolve) => io.close(() => resolve()));
    for (const close of closers) await close().catch(() => undefined);
  });

  return {
    emitToUser: (userId, event, payload) => {
      io.to(roomOf(userId)).emit(event, payload);
    },
  };
}
