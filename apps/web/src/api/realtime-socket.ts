import { SOCKET_EVENTS } from '@bogwan/contracts';
import { authStore } from '../state/auth';
import { freshToken, refreshSession } from './session-refresh';
import { openWire } from './socket-io-wire';

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
  let expired = false;

  const refreshAndReconnect = async () => {
    if (closed || refreshedSinceConnect) return;
    refreshedSinceConnect = true;
    let token: string | null;
    try {
      token = await refreshSession(sentToken);
    } catch {
      // Server unreachable: try again with what we have.
      token = authStore.get()?.token ?? null;
    }
    if (token && !closed) socket.connect();
  };

  const events: Record<string, ((payload: unknown) => void) | undefined> = {
    [SOCKET_EVENTS.notification]: handlers.notification,
    [SOCKET_EVENTS.task]: handlers.task,
    [SOCKET_EVENTS.usage]: handlers.usage,
    [SOCKET_EVENTS.sessionExpired]: () => {
      expired = true;
    },
  };

  // WebSocket only, as the server: one connection to one process, so no load balancer
  // needs sticky sessions (long-polling's requests would be spread over processes).
  const socket = openWire({
    path: '/socket.io',
    // Asked before every (re)connection, so a reconnect always carries a current token.
    auth: async () => {
      const token = await freshToken().catch(() => authStore.get()?.token ?? null);
      sentToken = token ?? '';
      return { token: sentToken };
    },
    handlers: {
      connect: () => {
        refreshedSinceConnect = false;
        handlers.connected?.();
      },
      // The server's middleware refused the token: not retried without a refresh.
      connectError: (message) => {
        if (message === UNAUTHORIZED) void refreshAndReconnect();
      },
      serverDisconnect: () => {
        if (closed) return;
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
      },
      event: (name, payload) => events[name]?.(payload),
    },
  });
  socket.connect();

  return () => {
    closed = true;
    socket.disconnect();
  };
}
