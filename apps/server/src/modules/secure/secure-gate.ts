import { forbidden } from '../../errors.js';
import type { NodeRow } from '../files/ports.js';
import type { RequestsRepo } from '../requests/requests.repo.js';
import { type DownloadGate, type DownloadTicket, FREE_TICKET } from '../transfer/download-gate.js';
import type { UserRow } from '../users/users.repo.js';
import type { ReservationsRepo } from './reservations.repo.js';
import type { SecureFolders } from './secure-folders.js';

/** A ticket that settles every reservation it holds. */
export function ticketOf(reservations: ReservationsRepo, ids: string[]): DownloadTicket {
  return {
    settle: async (completed) => {
      for (const id of ids) await reservations.settle(id, completed);
    },
  };
}

/**
 * The secure-folder check of every byte route (download, zip, preview): bytes that lie in
 * a locked folder, or a zip holding one, leave only under the caller's APPROVED, unexpired
 * download request covering them with downloads left. Each answer takes one download of
 * each request it needs before its first byte; the download counts when the answer
 * completes and is given back otherwise.
 */
export class SecureDownloadGate implements DownloadGate {
  constructor(
    private readonly secure: SecureFolders,
    private readonly requests: RequestsRepo,
    private readonly reservations: ReservationsRepo,
  ) {}

  async admit(user: UserRow, nodes: NodeRow[]): Promise<DownloadTicket> {
    const needed = new Set<string>();
    for (const node of nodes) for (const id of await this.secure.needed(node)) needed.add(id);
    if (needed.size === 0) return FREE_TICKET;

    const now = new Date().toISOString();
    const grants = await this.requests.activeGrants(user.id, 'download', now);
    const items = await this.requests.items(grants.map((g) => g.id));
    const taken = new Map<string, string>();
    try {
      for (const nodeId of needed) {
        const chain = new Set(await this.secure.chainIds(nodeId));
        const candidates = grants.filter((grant) => (items.get(grant.id) ?? []).some((item) => chain.has(item.node_id)));
        if (candidates.some((grant) => taken.has(grant.id))) continue;
        let reserved = false;
        for (const grant of candidates) {
          const reservation = await this.reservations.reserveRequest(grant.id, now);
          if (reservation) {
            taken.set(grant.id, reservation);
            reserved = true;
            break;
          }
        }
        if (!reserved) throw forbidden('secure_approval_required');
      }
    } catch (error) {
      for (const reservation of taken.values()) await this.reservations.settle(reservation, false);
      throw error;
    }
    return ticketOf(this.reservations, [...taken.values()]);
  }
}
