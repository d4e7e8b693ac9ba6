import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

/**
 * How many API and WebDAV requests run at once, how many may wait for a turn, and how long a
 * turn may be waited for (ms) before the server says it is busy.
 */
export interface AdmissionLimits {
  active: number;
  waiting: number;
  maxWaitMs: number;
}

/** A client told to come back later is told when: one second (`Retry-After`). */
export const RETRY_AFTER_SECONDS = 1;

/** A body larger than this is a transfer: its time is I/O, and it does not wait for a turn. */
const TRANSFER_BODY_BYTES = 1 << 20;

/**
 * Whether a request takes a turn: API and WebDAV calls do; the health checks (a load balancer
 * must hear the truth while the server is busy), static files, realtime sockets and large
 * request bodies (uploads) do not.
 */
export function takesTurn(request: Pick<FastifyRequest, 'url' | 'headers'>): boolean {
  const { url } = request;
  if (!url.startsWith('/api/') && !url.startsWith('/dav/') && url !== '/dav') return false;
  if (url.startsWith('/api/health')) return false;
  if (request.headers['transfer-encoding'] !== undefined) return false;
  return Number(request.headers['content-length'] ?? 0) <= TRANSFER_BODY_BYTES;
}

interface Waiter {
  since: number;
  resolve: (taken: boolean) => void;
}

/**
 * Turns in arrival order: at most `active` holders; up to `waiting` more wait in a queue; one
 * more is refused. A queue whose first waiter has waited half of `maxWaitMs` refuses newcomers
 * (those behind it would wait longer still), and a waiter whose wait reached `maxWaitMs` is
 * refused when its turn comes: a served request has waited at most `maxWaitMs`. A turn is handed to the next
 * waiter on the event loop's next turn, never in the giver's own stack, so that other I/O
 * (the health check, transfers) is served between two requests; it is given back exactly once.
 */
export class Turns {
  private holders = 0;
  private readonly queue: Waiter[] = [];
  private handing = false;

  constructor(
    private readonly limits: AdmissionLimits,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** True when the caller holds a turn, a promise of whether it will get one, or false at once (busy). */
  take(): Promise<boolean> | boolean {
    if (this.holders < this.limits.active && this.queue.length === 0) {
      this.holders++;
      return true;
    }
    if (this.queue.length >= this.limits.waiting) return false;
    const at = this.now();
    if (this.queue.length > 0 && at - this.queue[0]!.since >= this.limits.maxWaitMs / 2) return false;
    return new Promise<boolean>((resolve) => this.queue.push({ since: at, resolve }));
  }

  /** Gives a turn back: the first waiting caller gets it, on the next turn of the event loop. */
  give(): void {
    this.holders--;
    this.handOn();
  }

  private handOn(): void {
    if (this.handing || this.queue.length === 0 || this.holders >= this.limits.active) return;
    this.handing = true;
    this.holders++;
    setImmediate(() => {
      this.handing = false;
      const at = this.now();
      let next = this.queue.shift();
      while (next && at - next.since >= this.limits.maxWaitMs) {
        next.resolve(false);
        next = this.queue.shift();
      }
      if (next) next.resolve(true);
      else this.holders--;
      this.handOn();
    });
  }

  get active(): number {
    return this.holders;
  }

  get waiting(): number {
    return this.queue.length;
  }
}

/**
 * Admission control: API and WebDAV requests run at most `active` at a time, in arrival
 * order; beyond `waiting` more, or when the queue stands still for half of `maxWaitMs`, a
 * request is answered 503 `server_busy` with `Retry-After` at once (and one that waited
 * `maxWaitMs` when its turn comes), instead of queueing without bound
 * while every request in the process slows down.
 * The turn is given back when the answer starts (a download's streaming does not hold it),
 * or when the client goes away.
 */
export function registerAdmission(app: FastifyInstance, limits: AdmissionLimits): Turns {
  const turns = new Turns(limits);
  const held = new WeakSet<FastifyRequest>();
  const giveBack = (request: FastifyRequest) => {
    if (!held.has(request)) return;
    held.delete(request);
    turns.give();
  };
  app.addHook('onRequest', async (request, reply) => {
    if (!takesTurn(request)) return;
    const taken = turns.take();
    if (taken === false) throw busy(reply);
    if (taken !== true) {
      // Waiting: a client that goes away meanwhile gives its turn back as soon as it gets one.
      let gone = false;
      const onClose = () => (gone = true);
      request.raw.once('close', onClose);
      const given = await taken;
      request.raw.off('close', onClose);
      if (!given) throw busy(reply);
      if (gone) {
        turns.give();
        return;
      }
    }
    held.add(request);
    reply.raw.once('close', () => giveBack(request));
  });
  app.addHook('onSend', async (request) => giveBack(request));
  return turns;
}

function busy(reply: FastifyReply): AppError {
  reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  return new AppError(503, 'server_busy');
}
