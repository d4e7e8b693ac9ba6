import { SOCKET_EVENTS } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import type { AccessTokens } from '../modules/auth/access-token.js';
import type { SessionsRepo } from '../modules/sessions/sessions.repo.js';
import type { EndedSessions, SessionSockets } from '../modules/sessions/sessions.service.js';
import type { LocalSockets } from './usage-watch.js';

export interface GatewayDeps {
  tokens: AccessTokens;
  sessions: SessionsRepo;
  /** With a Redis URL, events fan out to the sockets of every server process. */
  redisUrl: string | undefined;
  /** Prefix of this installation's Redis channels, so installations sharing a Redis never hear each other. */
  redisPrefix: string;
}

/** Delivers events to a user's open sockets, on whichever server process they are. */
export interface Realtime {
  emitToUser(userId: string, event: string, payload: unknown): void;
}

/** The gateway: events out, and the sockets of ended sessions closed. */
export interface RealtimeGateway extends Realtime, SessionSockets, LocalSockets {
  /** Closes this process's sockets whose session ended or whose account is no longer active; answers how many. */
  closeEndedSessions(): Promise<number>;
}

/** How often sockets are checked against their sessions, for sessions ended elsewhere (command line). */
const SESSION_CHECK_INTERVAL_MS = 60_000;

const userRoom = (userId: string) => `user:${userId}`;
const sessionRoom = (sessionId: string) => `session:${sessionId}`;

/**
 * socket.io on the API's port. A socket proves who it is with the access token in its
 * handshake (`auth.token`); a bare user id is never enough. It joins its user's room and
 * its session's room. When the token expires the socket is told (`session_expired`) and
 * closed, and the web refreshes and reconnects. When the session ends (sign-out, password
 * change, blocked or deleted account) the socket is closed without that word: the web's
 * reconnect is refused at the handshake, its one refresh is refused, and it signs out.
 */
export async function startGateway(app: FastifyInstance, deps: GatewayDeps): Promise<RealtimeGateway> {
  // WebSocket only: a connection is one TCP stream to one process, so any load balancer
  // works without sticky sessions. Long-polling's requests of one session would land on
  // different processes behind a per-request balancer ("Session ID unknown").
  const io = new Server(app.server, { path: '/socket.io', serveClient: false, cors: { origin: false }, transports: ['websocket'] });
  const closers: (() => Promise<unknown>)[] = [];

  if (deps.redisUrl) {
    // Loaded only here: a single server without Redis does not carry the client (~13 MiB).
    const [{ createClient }, { createAdapter }] = await Promise.all([import('redis'), import('@socket.io/redis-adapter')]);
    const pub = createClient({ url: deps.redisUrl });
    const sub = pub.duplicate();
    pub.on('error', (err) => app.log.error({ err }, 'redis (publish) error'));
    sub.on('error', (err) => app.log.error({ err }, 'redis (subscribe) error'));
    await Promise.all([pub.connect(), sub.connect()]);
    io.adapter(createAdapter(pub, sub, { key: deps.redisPrefix }));
    closers.push(
      () => pub.quit(),
      () => sub.quit(),
    );
  }

  io.use(async (socket, next) => {
    const token: unknown = socket.handshake.auth?.token;
    const claims = typeof token === 'string' ? await deps.tokens.verify(token) : null;
    if (!claims) return next(new Error('unauthorized'));
    const user = await deps.sessions.findUserOfOpenSession(claims.sub, claims.sid);
    if (!user || user.status !== 'ACTIVE') return next(new Error('unauthorized'));
    socket.data.userId = user.id;
    socket.data.sessionId = claims.sid;
    socket.data.expiresAt = claims.exp * 1000;
    next();
  });

  io.on('connection', (socket: Socket) => {
    void socket.join([userRoom(socket.data.userId as string), sessionRoom(socket.data.sessionId as string)]);
    const ms = Math.max(0, (socket.data.expiresAt as number) - Date.now());
    const timer = setTimeout(() => {
      socket.emit(SOCKET_EVENTS.sessionExpired);
      socket.disconnect(true);
    }, ms);
    socket.on('disconnect', () => clearTimeout(timer));
  });

  const closeEndedSessions = async (): Promise<number> => {
    const bySession = new Map<string, Socket[]>();
    for (const socket of io.of('/').sockets.values()) {
      const sessionId = socket.data.sessionId as string;
      bySession.set(sessionId, [...(bySession.get(sessionId) ?? []), socket]);
    }
    if (bySession.size === 0) return 0;
    const valid = await deps.sessions.stillValid([...bySession.keys()]);
    let closed = 0;
    for (const [sessionId, sockets] of bySession) {
      if (valid.has(sessionId)) continue;
      for (const socket of sockets) socket.disconnect(true);
      closed += sockets.length;
    }
    return closed;
  };
  let checking = false;
  const sessionCheck = setInterval(() => {
    if (checking) return;
    checking = true;
    closeEndedSessions()
      .catch((err: unknown) => app.log.warn({ err }, 'checking the sessions of open sockets failed'))
      .finally(() => (checking = false));
  }, SESSION_CHECK_INTERVAL_MS);
  sessionCheck.unref();

  app.addHook('preClose', async () => {
    clearInterval(sessionCheck);
    io.disconnectSockets(true);
    await new Promise<void>((resolve) => io.close(() => resolve()));
    for (const close of closers) await close().catch(() => undefined);
  });

  return {
    emitToUser: (userId, event, payload) => {
      io.to(userRoom(userId)).emit(event, payload);
    },
    // Through the adapter, so sockets on other server processes close too.
    endSessions: (ended: EndedSessions) => {
      if ('sessionId' in ended) {
        io.in(sessionRoom(ended.sessionId)).disconnectSockets(true);
        return;
      }
      const sockets = io.in(userRoom(ended.userId));
      (ended.except ? sockets.except(sessionRoom(ended.except)) : sockets).disconnectSockets(true);
    },
    closeEndedSessions,
    localSocketCount: () => io.of('/').sockets.size,
    emitToLocalSockets: (event, payload) => {
      io.local.emit(event, payload);
    },
  };
}
