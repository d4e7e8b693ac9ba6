import { downloadTicketRequestSchema, downloadTicketSchema, type DownloadTicketRequest } from '@bogwan/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/index.js';
import { authenticate, type AuthorizeDeps } from '../../http/authorize.js';
import type { RoutePolicy } from '../../http/policy.js';
import { requireDecorators } from '../../http/wiring.js';
import type { NodeRow } from '../files/ports.js';
import type { SessionsRepo } from '../sessions/sessions.repo.js';
import { SpentTicketsRepo } from '../shares/spent-tickets.repo.js';
import type { UserRow } from '../users/users.repo.js';
import type { DownloadService } from './download.service.js';
import { FileDownloadTickets } from './file-download-tickets.js';

const policies = {
  ticket: {
    category: 'file',
    name: 'file_download_ticket',
    description: 'An address for the browser to download a file, zip or version by itself (one minute to start, single use, resumable with Range; DOWNLOAD)',
    level: 1,
  },
} satisfies Record<string, RoutePolicy>;

export interface DownloadTicketsDeps {
  db: Db;
  serverSecret: string;
  /** The bearer check, for download requests that carry no ticket. */
  authorize: AuthorizeDeps;
  sessions: SessionsRepo;
  downloads: DownloadService;
}

/** The address a ticket request downloads from: the file download, or the version download. */
function addressOf(body: DownloadTicketRequest): string {
  const query = new URLSearchParams();
  if (body.versionId !== undefined) {
    query.set('path', body.path!);
    query.set('id', body.versionId);
    return `/api/file/version/download?${query}`;
  }
  if (body.path !== undefined) query.set('path', body.path);
  else for (const path of body.paths ?? []) query.append('paths', path);
  return `/api/file/download?${query}`;
}

/**
 * Downloads by the browser's download manager: `POST /api/file/download/ticket` answers the
 * download's address with a ticket (FileDownloadTickets), and the routes that declare
 * `authentication: 'file-download-ticket'` (the file download, the version download) admit a
 * request by that ticket, or by the bearer token when it carries none. Needs `app.fileTree`.
 */
export async function registerDownloadTickets(app: FastifyInstance, deps: DownloadTicketsDeps): Promise<void> {
  requireDecorators(app, 'download-tickets', ['addAuthenticator', 'fileTree']);
  const tickets = new FileDownloadTickets(deps.serverSecret, new SpentTicketsRepo(deps.db));

  app.addAuthenticator('file-download-ticket', async (request: FastifyRequest): Promise<UserRow | null> => {
    const query = (request.query ?? {}) as { ticket?: unknown; path?: unknown };
    if (query.ticket === undefined) return (await authenticate(request, deps.authorize))?.user ?? null;
    if (typeof query.ticket !== 'string') return null;
    const claims = await tickets.admit(query.ticket, request.url, request.headers.range);
    if (!claims) return null;
    const user = await deps.sessions.findUserOfOpenSession(claims.userId, claims.sessionId);
    if (!user) return null;
    if (claims.hash !== null) {
      // A file replaced since the ticket was issued is not served under it (nor resumed into).
      const node = typeof query.path === 'string' ? await app.fileTree.resolve(query.path) : undefined;
      if (!node || node.content_hash !== claims.hash) return null;
    }
    return user;
  });

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();
    r.post(
      '/api/file/download/ticket',
      { config: { policy: policies.ticket }, schema: { tags: ['file'], body: downloadTicketRequestSchema, response: { 200: downloadTicketSchema } } },
      async (request, reply) => {
        const user = request.user!;
        const body = request.body;
        // Refused here as the download itself would refuse (no DOWNLOAD, no such path), before the browser leaves the page.
        const nodes: NodeRow[] = [];
        for (const path of body.paths ?? [body.path!]) nodes.push(await deps.downloads.require(user, path, 'DOWNLOAD'));
        // A secure folder without an approved request refuses here too (recorded as the download would be); the claim is given back at once.
        await (await deps.downloads.admit(user, nodes)).settle(false);
        const single = body.path !== undefined && body.versionId === undefined && nodes[0]!.folder !== 1 ? nodes[0]! : undefined;
        reply.header('cache-control', 'no-store');
        const url = tickets.issue(addressOf(body), {
          userId: user.id,
          sessionId: request.sessionId!,
          hash: single?.content_hash ?? null,
          resumable: single !== undefined || body.versionId !== undefined,
        });
        return { url };
      },
    );
  });
}
