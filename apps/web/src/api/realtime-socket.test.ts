import { afterEach, describe, expect, it, vi } from 'vitest';

const opened: { options: Record<string, unknown>; connect: ReturnType<typeof vi.fn> }[] = [];

vi.mock('socket.io-client', () => ({
  io: (options: Record<string, unknown>) => {
    const socket = { on: vi.fn(), connect: vi.fn(), disconnect: vi.fn(), removeAllListeners: vi.fn(), connected: false };
    opened.push({ options, connect: socket.connect });
    return socket;
  },
}));

const { connectRealtime } = await import('./realtime-socket');

afterEach(() => {
  opened.length = 0;
});

describe('the realtime socket', () => {
  it('speaks WebSocket only, so a load balancer needs no sticky sessions', () => {
    const close = connectRealtime({ notification: () => undefined, task: () => undefined });
    expect(opened).toHaveLength(1);
    expect(opened[0]!.options).toMatchObject({ path: '/socket.io', transports: ['websocket'] });
    expect(opened[0]!.connect).toHaveBeenCalledOnce();
    close();
  });
});
