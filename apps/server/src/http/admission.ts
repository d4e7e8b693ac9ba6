import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

/** How many API and WebDAV requests run at once, and how many may wait for a turn. */
export interface AdmissionLimits {
  active: number;
  waiting: number;
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

/**
 * Turns in arrival order: at most `active` holders; up to `waiting` more wait in a queue; one
 * more is refused. A turn is given back exactly once.
 */
export class Turns {
  private holders = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly limits: AdmissionLimits) {}

  /** Resolves when the caller holds a turn; false at once when the queue is full. */
  take(): Promise<boolean> | boolean {
    if (this.holders < this.limits.active) {
      this.holders++;
      return true;
    }
    if (this.queue.length >= this.limits.waiting) return false;
    return new Promise<boolean>((resolve) => this.queue.push(() => resolve(true)));
  }

  /** Gives a turn back: the first waiting caller gets it. */
  give(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.holders--;
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
 * order; beyond `waiting` more, a request is answered 503 `server_busy` with `Retry-After`
 * at once, instead of queueing without bound while every request in the process slows down.
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
      await taken;
      request.raw.off('close', onClose);
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
