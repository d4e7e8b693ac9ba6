import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NodeRow } from '../files/ports.js';
import type { UserRow } from '../users/users.repo.js';

/**
 * Settles one admitted download: `completed` is true when every byte went out, false when
 * the answer failed, was cut off or carried no body (the use is given back).
 */
export interface DownloadTicket {
  settle(completed: boolean): Promise<void>;
}

/**
 * The one check every route that serves file bytes (download, zip, preview) passes after
 * the permission check: secure folders need an approval, and each approved download is
 * counted. Refuses with an AppError; answers a ticket to settle once the answer ends.
 */
export interface DownloadGate {
  admit(user: UserRow, nodes: NodeRow[]): Promise<DownloadTicket>;
}

/** The ticket of a download nothing counts. */
export const FREE_TICKET: DownloadTicket = { settle: async () => {} };

/**
 * Settles `ticket` when the answer ends: completed when a GET's 2xx answer was written
 * out in full, given back when it failed, was cut off (client gone, stream error) or was
 * a HEAD or 304 (no bytes left). Settles exactly once.
 */
export function settleWhenSent(request: FastifyRequest, reply: FastifyReply, ticket: DownloadTicket, onError: (error: unknown) => void): void {
  let settled = false;
  const settle = (completed: boolean) => {
    if (settled) return;
    settled = true;
    ticket.settle(completed).catch(onError);
  };
  const raw = reply.raw;
  raw.once('finish', () => settle(request.method === 'GET' && raw.statusCode >= 200 && raw.statusCode < 300));
  raw.once('close', () => settle(false));
}
