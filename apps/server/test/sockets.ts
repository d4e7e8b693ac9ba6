import { type Socket, io } from 'socket.io-client';

/** Connects a socket with the given handshake auth; answers it once connected, or the connect error. */
export function connect(url: string, auth: Record<string, unknown>): Promise<{ socket: Socket; error?: string }> {
  return new Promise((resolve) => {
    const socket = io(url, { path: '/socket.io', auth, transports: ['websocket'], reconnection: false, forceNew: true });
    socket.once('connect', () => resolve({ socket }));
    socket.once('connect_error', (err) => resolve({ socket, error: err.message }));
  });
}

/** The next event of that name, or a timeout. */
export function next<T>(socket: Socket, event: string, ms = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}
