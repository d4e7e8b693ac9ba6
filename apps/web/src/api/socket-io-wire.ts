// The few parts of the Socket.IO protocol (v5, over Engine.IO v4) this app speaks, on the
// browser's own WebSocket: the server's socket.io library is unchanged, the 13 KB gzip
// client library is not shipped. What it covers is what the server uses: the main
// namespace, a handshake with an `auth` object, events from the server to the client, the
// server's heartbeat and its disconnects. No acknowledgements, binary events or polling.
// https://socket.io/docs/v4/socket-io-protocol/ and https://socket.io/docs/v4/engine-io-protocol/

/** Engine.IO packet types (the first character of a frame). */
const ENGINE = { open: '0', close: '1', ping: '2', pong: '3', message: '4' } as const;
/** Socket.IO packet types (the first character of an Engine.IO message). */
const SOCKET = { connect: '0', disconnect: '1', event: '2', connectError: '4' } as const;

/** Waits before reconnecting after a lost connection: doubling from the first, up to the last, each ±50 %. */
const RECONNECT_DELAY_MS = { first: 1000, max: 5000 } as const;

export interface WireHandlers {
  /** The handshake was accepted. */
  connect: () => void;
  /** The server refused the handshake (its middleware's message, e.g. `unauthorized`); not retried here. */
  connectError: (message: string) => void;
  /** The server closed the socket (a session ended, a restart); not retried here. */
  serverDisconnect: () => void;
  /** One event from the server. */
  event: (name: string, payload: unknown) => void;
}

export interface WireSocket {
  /** Opens the socket (again); does nothing while one is open or opening. */
  connect(): void;
  /** Closes the socket for good (until `connect`). */
  disconnect(): void;
  readonly connected: boolean;
}

export interface WireOptions {
  /** Where the server listens, `/socket.io`. */
  path: string;
  /** The handshake's `auth` object, asked for before every (re)connection. */
  auth: () => Promise<Record<string, unknown>>;
  handlers: WireHandlers;
}

interface OpenPacket {
  pingInterval: number;
  pingTimeout: number;
}

function socketUrl(path: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${window.location.host}${path}/?EIO=4&transport=websocket`;
}

/**
 * A Socket.IO client socket on the page's origin. A connection lost without the server
 * saying so (network, server gone, heartbeat missed) is reopened with back-off, as
 * socket.io-client does; a refused handshake or a server disconnect is left to the caller.
 */
export function openWire({ path, auth, handlers }: WireOptions): WireSocket {
  let ws: WebSocket | null = null;
  let connected = false;
  let wanted = false;
  let attempts = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let heartbeatTimer: ReturnType<typeof setTimeout> | undefined;

  const stop = () => {
    clearTimeout(heartbeatTimer);
    clearTimeout(reconnectTimer);
    const current = ws;
    ws = null;
    connected = false;
    if (current) {
      current.onopen = current.onmessage = current.onclose = current.onerror = null;
      if (current.readyState === WebSocket.OPEN) current.close();
      else if (current.readyState === WebSocket.CONNECTING) current.onopen = () => current.close();
    }
  };

  const scheduleReconnect = () => {
    stop();
    if (!wanted) return;
    const base = Math.min(RECONNECT_DELAY_MS.max, RECONNECT_DELAY_MS.first * 2 ** attempts);
    attempts += 1;
    reconnectTimer = setTimeout(open, base * (0.5 + Math.random()));
  };

  // The server pings every `pingInterval`; silence past `pingTimeout` more means the link is dead.
  const expectHeartbeat = (packet: OpenPacket) => {
    clearTimeout(heartbeatTimer);
    heartbeatTimer = setTimeout(scheduleReconnect, packet.pingInterval + packet.pingTimeout);
  };

  const onSocketPacket = (data: string, socket: WebSocket) => {
    const type = data[0];
    const body = data.slice(1);
    if (type === SOCKET.connect) {
      connected = true;
      attempts = 0;
      handlers.connect();
    } else if (type === SOCKET.connectError) {
      stop();
      handlers.connectError(parseJson<{ message?: string }>(body)?.message ?? '');
    } else if (type === SOCKET.disconnect) {
      stop();
      handlers.serverDisconnect();
    } else if (type === SOCKET.event && socket === ws) {
      const args = parseJson<unknown[]>(body);
      if (Array.isArray(args) && typeof args[0] === 'string') handlers.event(args[0], args[1]);
    }
  };

  function open() {
    if (!wanted || ws) return;
    const socket = new WebSocket(socketUrl(path));
    ws = socket;
    let heartbeat: OpenPacket | null = null;
    socket.onmessage = (message: MessageEvent) => {
      if (typeof message.data !== 'string' || socket !== ws) return;
      const frame = message.data;
      if (frame[0] === ENGINE.open) {
        heartbeat = parseJson<OpenPacket>(frame.slice(1));
        if (heartbeat) expectHeartbeat(heartbeat);
        // The namespace's handshake, with a current token.
        void auth().then((payload) => {
          if (socket === ws && socket.readyState === WebSocket.OPEN) socket.send(`${ENGINE.message}${SOCKET.connect}${JSON.stringify(payload)}`);
        });
      } else if (frame[0] === ENGINE.ping) {
        socket.send(ENGINE.pong);
        if (heartbeat) expectHeartbeat(heartbeat);
      } else if (frame[0] === ENGINE.message) {
        onSocketPacket(frame.slice(1), socket);
      } else if (frame[0] === ENGINE.close) {
        scheduleReconnect();
      }
    };
    socket.onclose = () => {
      if (socket === ws) scheduleReconnect();
    };
  }

  return {
    connect() {
      wanted = true;
      if (!ws) {
        clearTimeout(reconnectTimer);
        open();
      }
    },
    disconnect() {
      wanted = false;
      if (ws?.readyState === WebSocket.OPEN && connected) ws.send(`${ENGINE.message}${SOCKET.disconnect}`);
      stop();
    },
    get connected() {
      return connected;
    },
  };
}

function parseJson<T>(text: string): T | null {
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}
