import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A browser WebSocket whose server side the test plays: what the client sent, and frames to answer with. */
class FakeWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static opened: FakeWebSocket[] = [];
  readyState = FakeWebSocket.OPEN;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeWebSocket.opened.push(this);
  }
  send(frame: string) {
    this.sent.push(frame);
  }
  close() {
    this.readyState = FakeWebSocket.CLOSED;
  }
  /** The server sends one frame. */
  receive(frame: string) {
    this.onmessage?.({ data: frame });
  }
  /** The connection is lost without a word from the server. */
  drop() {
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.();
  }
}

const OPEN_FRAME = '0{"sid":"s1","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}';

let token = 'first';
const refreshSession = vi.fn(async () => {
  token = 'second';
  return token;
});
vi.mock('./session-refresh', () => ({ freshToken: async () => token, refreshSession: () => refreshSession() }));

const { connectRealtime } = await import('./realtime-socket');

const flush = () => vi.advanceTimersByTimeAsync(0);
const latest = () => FakeWebSocket.opened.at(-1)!;

/** Plays the server's side of a successful handshake on the latest socket. */
async function accept(): Promise<FakeWebSocket> {
  const ws = latest();
  ws.receive(OPEN_FRAME);
  await flush();
  ws.receive('40{"sid":"n1"}');
  return ws;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeWebSocket);
  vi.stubGlobal('window', { location: { protocol: 'https:', host: 'files.example.com' } });
  token = 'first';
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  FakeWebSocket.opened = [];
  refreshSession.mockClear();
});

function handlers() {
  return { notification: vi.fn(), task: vi.fn(), usage: vi.fn(), connected: vi.fn() };
}

describe('the realtime socket', () => {
  it('speaks WebSocket only, hands the token over and passes the server events on', async () => {
    const on = handlers();
    const close = connectRealtime(on);
    expect(FakeWebSocket.opened).toHaveLength(1);
    expect(latest().url).toBe('wss://files.example.com/socket.io/?EIO=4&transport=websocket');
    const ws = await accept();
    expect(ws.sent).toEqual(['40{"token":"first"}']);
    expect(on.connected).toHaveBeenCalledOnce();

    ws.receive('42["notification",{"_id":"n1"}]');
    ws.receive('42["task",{"id":"t1"}]');
    ws.receive('42["usage",{"roots":["r1"]}]');
    ws.receive('42["unknown",{}]');
    expect(on.notification).toHaveBeenCalledWith({ _id: 'n1' });
    expect(on.task).toHaveBeenCalledWith({ id: 't1' });
    expect(on.usage).toHaveBeenCalledWith({ roots: ['r1'] });

    // The server's heartbeat is answered.
    ws.receive('2');
    expect(ws.sent.at(-1)).toBe('3');
    close();
    expect(ws.sent.at(-1)).toBe('41');
    ws.drop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeWebSocket.opened).toHaveLength(1);
  });

  it('comes back by itself after a lost connection, and catches up', async () => {
    const on = handlers();
    const close = connectRealtime(on);
    (await accept()).drop();
    await vi.advanceTimersByTimeAsync(1600);
    expect(FakeWebSocket.opened).toHaveLength(2);
    await accept();
    expect(on.connected).toHaveBeenCalledTimes(2);
    close();
  });

  it('reconnects when the server stays silent past its heartbeat', async () => {
    const close = connectRealtime(handlers());
    await accept();
    await vi.advanceTimersByTimeAsync(45_000 + 1600);
    expect(FakeWebSocket.opened).toHaveLength(2);
    close();
  });

  it('refreshes the session once when the handshake is refused, and reconnects with the new token', async () => {
    const on = handlers();
    const close = connectRealtime(on);
    latest().receive(OPEN_FRAME);
    await flush();
    latest().receive('44{"message":"unauthorized"}');
    await flush();
    expect(refreshSession).toHaveBeenCalledOnce();
    expect(FakeWebSocket.opened).toHaveLength(2);
    const ws = await accept();
    expect(ws.sent).toEqual(['40{"token":"second"}']);

    close();
  });

  it('after the server ends an expired session, refreshes and reconnects', async () => {
    const close = connectRealtime(handlers());
    const ws = await accept();
    ws.receive('42["session_expired"]');
    ws.receive('41');
    await flush();
    expect(refreshSession).toHaveBeenCalledOnce();
    expect(FakeWebSocket.opened).toHaveLength(2);
    close();
  });

  it('after a server restart closes the socket, comes back after a moment without a refresh', async () => {
    const close = connectRealtime(handlers());
    (await accept()).receive('41');
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeWebSocket.opened).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(4000);
    expect(FakeWebSocket.opened).toHaveLength(2);
    expect(refreshSession).not.toHaveBeenCalled();
    close();
  });
});
