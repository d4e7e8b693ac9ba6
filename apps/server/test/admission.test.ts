import net from 'node:net';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Turns } from '../src/http/admission.js';
import { call, callRefused, describeEachDialect, startServer, type TestServer } from './harness.js';

/** A request whose body never finishes: it holds its turn until `end` sends the rest. */
function stalledRequest(url: string): Promise<{ end: () => Promise<string> }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      const body = JSON.stringify({ email: 'nobody@example.com', password: 'x' });
      const half = Math.floor(body.length / 2);
      socket.write(
        `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      );
      socket.write(body.slice(0, half));
      let answer = '';
      socket.on('data', (data) => (answer += data.toString()));
      const closed = new Promise<string>((done) => socket.on('close', () => done(answer)));
      resolve({
        end: () => {
          socket.write(body.slice(half));
          return closed;
        },
      });
    });
    socket.on('error', reject);
  });
}

const LIMITS = { active: 1, waiting: 1, maxWaitMs: 250 };
const nextTurnOfTheLoop = () => new Promise((resolve) => setImmediate(resolve));

it('turns: at most `active` holders, then a bounded queue in arrival order, then refusals', async () => {
  const turns = new Turns(LIMITS);
  expect(turns.take()).toBe(true);
  const second = turns.take();
  expect(second).toBeInstanceOf(Promise);
  expect(turns.take()).toBe(false);
  turns.give();
  await expect(second).resolves.toBe(true);
  expect(turns.active).toBe(1);
  turns.give();
  expect(turns.active).toBe(0);
});

it("turns: a turn given back reaches the next waiter on a later turn of the event loop, not in the giver's stack", async () => {
  const turns = new Turns({ ...LIMITS, waiting: 10 });
  expect(turns.take()).toBe(true);
  const order: string[] = [];
  void (turns.take() as Promise<boolean>).then(() => order.push('waiter'));
  setImmediate(() => order.push('other I/O'));
  turns.give();
  await Promise.resolve();
  expect(order).toEqual([]);
  // The slot stays reserved for the waiter: a newcomer queues behind it instead of taking it.
  expect(turns.active).toBe(1);
  expect(turns.take()).toBeInstanceOf(Promise);
  await nextTurnOfTheLoop();
  await nextTurnOfTheLoop();
  expect(order).toEqual(['other I/O', 'waiter']);
});

it('turns: a queue standing still for half of `maxWaitMs` refuses newcomers, and a waiter that waited `maxWaitMs` is refused when its turn comes', async () => {
  let now = 0;
  const turns = new Turns({ active: 1, waiting: 100, maxWaitMs: 250 }, () => now);
  expect(turns.take()).toBe(true);
  const early = turns.take() as Promise<boolean>;
  now = 100;
  const later = turns.take() as Promise<boolean>;
  expect(later).toBeInstanceOf(Promise);
  now = 125;
  // The first waiter has waited half the limit: a newcomer would wait longer than the limit.
  expect(turns.take()).toBe(false);
  now = 260;
  turns.give();
  // 260 ms is past the limit for the first waiter, not for the second (160 ms): no served request waited longer.
  await expect(early).resolves.toBe(false);
  await expect(later).resolves.toBe(true);
  expect(turns.active).toBe(1);
  expect(turns.waiting).toBe(0);
  turns.give();
  await nextTurnOfTheLoop();
  expect(turns.active).toBe(0);
});

describeEachDialect('admission control on $dialect', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect, { BOGWAN_MAX_ACTIVE_REQUESTS: '1', BOGWAN_MAX_WAITING_REQUESTS: '0' });
  });
  afterAll(() => server?.close());

  it('answers 503 server_busy with Retry-After when every turn is taken, keeps health answering, and serves again once a turn is free', async () => {
    const stalled = await stalledRequest(server.url);
    // The stalled request holds the only turn once its headers are read.
    let refused;
    for (let i = 0; i < 50; i++) {
      refused = await callRefused(server, apiCalls.setup_status).catch(() => undefined);
      if (refused) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(refused?.status).toBe(503);
    expect(refused?.body.message).toBe('server_busy');
    expect(refused?.headers.get('retry-after')).toBe('1');

    const health = await server.request('GET', '/api/health');
    expect(health.status).toBe(200);

    const answer = await stalled.end();
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    const after = await call(server, apiCalls.setup_status);
    expect(after.status).toBe(200);
  });
});
