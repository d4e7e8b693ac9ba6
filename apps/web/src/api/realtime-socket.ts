import { SOCKET_EVENTS } from '@bogwan/contracts';
import { io, type Socket } from 'socket.io-client';
import { authStore } from '../state/auth';
import { freshToken, refreshSession } from './session-refresh';

export interface RealtimeHandlers {
  notification: (payload: unknown) => void;
  task: (payload: unknown) => void;
  /** A root folder's usage or limit changed. */
  usage?: (payload: unknown) => void;
  /** After every (re)connection, to catch up on events missed while away. */
  connected?: () => void;
}

/** The server's answer to a handshake without a valid access token. */
const UNAUTHORIZED = 'unauthorized';
/** Wait before reconnecting after the server closed the socket for a reason other than expiry. */
const RESTART_DELAY_MS = 2000;

/**
 * Opens this tab's socket to the server (same origin, `/socket.io`) with the access token
 * and passes its events on. An expired session (`session_expired`, or a handshake refused
 * as `unauthorized`) gets one refresh through the session module and a reconnect with the
 * new token; a refused refresh ends the session there (and so sends the user to sign-in).
 * Answers a function that closes the socket.
 */
export function connectRealtime(handlers: RealtimeHandlers): () => void {
  let closed = false;
  // The token of the last handshake, so a refresh can say which one went stale.
  let sentToken = authStore.get()?.token ?? '';
  // One refresh per refusal: a fresh token refused again is not retried in a loop.
  let refreshedSinceConnect = false;

  const socket: Socket = io({
    path: '/socket.io',
    // WebSocket only, as the server: one connection to one process, so no load balancer
    // needs sticky sessions (long-polling's requests would be spread over processes).
    transports: ['websocket'],
    // Asked before every (re)connection, so a reconnect always carries a current token.
    auth: (send) => {
      freshToken()
        .catch(() => authStore.get()?.token ?? null)
        .then((token) => {
          sentToken = token ?? '';
          send({ token: sentToken });
        });
    },
    autoConnect: false,
  });

  const refreshAndReconnect = async () => {
    if (closed || refreshedSinceConnect) return;
    refreshedSinceConnect = true;
    let token: string | null;
    try {
      token = await refreshSession(sentToken);
    } catch {
      // Server unreachable: try again with what we have; socket.io backs off on its own.
      token = authStore.get()?.token ?? null;
    }
    if (token && !closed) socket.connect();
  };

  socket.on('connect', () => {
    refreshedSinceConnect = false;
    handlers.connected?.();
  });
  socket.on('connect_error', (error) => {
    // The server's middleware refused the token: socket.io does not retry that by itself.
    if (error.message === UNAUTHORIZED) void refreshAndReconnect();
  });
  let expired = false;
  socket.on(SOCKET_EVENTS.sessionExpired, () => {
    expired = true;
  });
  socket.on('disconnect', (reason) => {
    // socket.io does not reconnect after the server closed the socket; do it here.
    if (closed || reason !== 'io server disconnect') return;
    if (expired) {
      expired = false;
      refreshedSinceConnect = false;
      void refreshAndReconnect();
    } else {
      // Closed for another reason (a restart): come back after a moment.
      setTimeout(
        () => {
          if (!closed && !socket.connected) socket.connect();
        },
        RESTART_DELAY_MS + Math.random() * RESTART_DELAY_MS,
      );
    }
  });
  socket.on(SOCKET_EVENTS.notification, handlers.notification);
  socket.on(SOCKET_EVENTS.task, handlers.task);
  if (handlers.usage) socket.on(SOCKET_EVENTS.usage, handlers.usage);
  socket.connect();

  return () => {
    closed = true;
    socket.removeAllListeners();
    socket.disconnect();
  };
}
