import {
  SHARE_TOKEN_HEADER,
  publicShareListSchema,
  publicSharePathQuerySchema,
  publicShareSchema,
  shareDownloadTicketQuerySchema,
  shareDownloadTicketRequestSchema,
  shareDownloadTicketSchema,
  shareKeyParamsSchema,
  shareUnlockRequestSchema,
  shareUnlockResponseSchema,
} from '@bogwan/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type AuthorizeDeps, authenticate } from '../../http/authorize.js';
import type { RoutePolicy } from '../../http/policy.js';
import { settleWhenSent } from '../transfer/download-gate.js';
import type { DownloadService } from '../transfer/download.service.js';
import { contentDisposition, PREVIEW_CSP, previewType } from '../transfer/http-bytes.js';
import type { AdmittedDownload, PublicSharesService, Visitor } from './public-shares.service.js';

const category = 'share';
const policies = {
  info: { category, name: 'share_public', description: 'What a share link shows (public; sign-in for some scopes)', level: 0 },
  unlock: { category, name: 'share_public_unlock', description: "Give a share link's password; rate-limited per link and address", level: 0 },
  list: { category, name: 'share_public_list', description: 'Browse a shared folder (public)', level: 0 },
  download: { category, name: 'share_public_download', description: 'Download through a share link; counted when complete (public)', level: 0 },
  downloadTicket: {
    category,
    name: 'share_public_download_ticket',
    description: 'A single-use, one-minute ticket for one download through a share link, checked like the download (public)',
    level: 0,
  },
  ticketDownload: {
    category,
    name: 'share_public_ticket_download',
    description: 'Download through a share link with a download ticket only, streamed to disk; counted when complete (public)',
    level: 0,
  },
  preview: { category, name: 'share_public_preview', description: 'Preview a file through a share link without a download limit (public)', level: 0 },
} satisfies Record<string, RoutePolicy>;

export interface PublicShareRoutesDeps {
  shares: PublicSharesService;
  downloads: DownloadService;
  authorize: AuthorizeDeps;
}

/** The public share calls. A bearer token is optional: it admits the scopes that need a signed-in visitor. */
export async function publicShareRoutes(app: FastifyInstance, { shares, downloads, authorize }: PublicShareRoutesDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  const visitorOf = async (request: FastifyRequest): Promise<Visitor> => {
    const token = request.headers[SHARE_TOKEN_HEADER];
    const signedIn = await authenticate(request, authorize);
    return {
      ip: request.ip,
      user: signedIn?.user ?? null,
      sessionId: signedIn?.sessionId ?? null,
      shareToken: typeof token === 'string' ? token : undefined,
    };
  };

  /** Sends an admitted download: the file, or a zip of what the link's creator may read and download. */
  const send = async (request: FastifyRequest, reply: FastifyReply, admitted: AdmittedDownload, _visitor: Visitor) => {
    const { node, ticket, share, creator, withheld } = admitted;
    settleWhenSent(request, reply, ticket, (error) => request.log.error({ err: error }, 'share download not settled'));
    await shares.recordTransfer(share, node, 'share.download');
    reply.header('cache-control', 'no-store').header('x-content-type-options', 'nosniff');
    if (node.folder === 1) {
      const zip = downloads.zip(`${node.name}.zip`, [node], creator, new Set(withheld));
      return reply.header('content-type', 'application/zip').header('content-disposition', contentDisposition('attachment', zip.name)).send(zip.stream);
    }
    const file = await downloads.file(node);
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', contentDisposition('attachment', node.name))
      .header('content-length', file.size)
      .send(await file.open());
  };

  r.get(
    '/api/share/public/:key',
    { config: { policy: policies.info }, schema: { tags, params: shareKeyParamsSchema, response: { 200: publicShareSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return shares.info(request.params.key, await visitorOf(request));
    },
  );

  r.post(
    '/api/share/public/:key/unlock',
    {
      config: { policy: policies.unlock },
      schema: { tags, params: shareKeyParamsSchema, body: shareUnlockRequestSchema, response: { 200: shareUnlockResponseSchema } },
    },
    async (request) => ({ shareToken: await shares.unlock(request.params.key, await visitorOf(request), request.body.password) }),
  );

  r.get(
    '/api/share/public/:key/list',
    {
      config: { policy: policies.list },
      schema: { tags, params: shareKeyParamsSchema, querystring: publicSharePathQuerySchema, response: { 200: publicShareListSchema } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return shares.list(request.params.key, await visitorOf(request), request.query.path);
    },
  );

  r.get(
    '/api/share/public/:key/download',
    { config: { policy: policies.download }, schema: { tags, params: shareKeyParamsSchema, querystring: publicSharePathQuerySchema } },
    async (request, reply) => {
      const visitor = await visitorOf(request);
      return send(request, reply, await shares.admitDownload(request.params.key, visitor, request.query.path), visitor);
    },
  );

  r.post(
    '/api/share/public/:key/ticket',
    {
      config: { policy: policies.downloadTicket },
      schema: { tags, params: shareKeyParamsSchema, body: shareDownloadTicketRequestSchema, response: { 200: shareDownloadTicketSchema } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const visitor = await visitorOf(request);
      const shareToken = visitor.shareToken ?? request.body.shareToken;
      return { ticket: await shares.downloadTicket(request.params.key, { ...visitor, shareToken }, request.body.path) };
    },
  );

  // The ticket is the only credential in this URL; the access log blanks `ticket=` values.
  r.get(
    '/api/share/public/download',
    { config: { policy: policies.ticketDownload }, schema: { tags, querystring: shareDownloadTicketQuerySchema } },
    async (request, reply) => {
      const { admitted, visitor } = await shares.admitTicket(request.query.ticket, request.ip);
      return send(request, reply, admitted, visitor);
    },
  );

  r.get(
    '/api/share/public/:key/preview',
    { config: { policy: policies.preview }, schema: { tags, params: shareKeyParamsSchema, querystring: publicSharePathQuerySchema } },
    async (request, reply) => {
      const node = await shares.admitPreview(request.params.key, await visitorOf(request), request.query.path);
      const file = await downloads.file(node);
      return reply
        .header('content-security-policy', PREVIEW_CSP)
        .header('cross-origin-resource-policy', 'same-origin')
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .header('content-type', previewType(node.name))
        .header('content-disposition', contentDisposition('inline', node.name))
        .header('content-length', file.size)
        .send(await file.open());
    },
  );
}
