import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { AccessService } from '../files/access.service.js';
import type { FileTreeService } from '../files/file-tree.js';
import type { FilesService } from '../files/files.service.js';
import type { NodeRow } from '../files/ports.js';
import { settleWhenSent } from '../transfer/download-gate.js';
import type { DownloadService } from '../transfer/download.service.js';
import { contentDisposition, etagMatches, PREVIEW_CSP, parseRange } from '../transfer/http-bytes.js';
import { type DavRequest, headerOf } from './dav-context.js';
import { DavError, davCondition } from './dav-errors.js';
import { hrefOf, memberHref } from './dav-paths.js';
import { readXmlBody } from './dav-body.js';
import type { DavListingRepo } from './dav-listing.repo.js';
import { joinPath } from '@bogwan/contracts';
import { type DavEntry, type DavProperties, davContentType, parsePropfind } from './properties.js';

/** PROPFIND and GET/HEAD: reading the tree over WebDAV, with the web's permission checks. */
export class DavReads {
  constructor(
    private readonly tree: FileTreeService,
    private readonly access: AccessService,
    private readonly files: FilesService,
    private readonly downloads: DownloadService,
    private readonly properties: DavProperties,
    private readonly listings: DavListingRepo,
  ) {}

  /**
   * PROPFIND with Depth 0 or 1 (infinity, or no Depth, is 403 `propfind-finite-depth`): READ
   * on the resource; Depth 1 lists a folder's live children with one query (as the web's
   * listing, which READ on the folder opens), `/dav/` the root folders the account may READ.
   */
  async propfind(dav: DavRequest, reply: FastifyReply): Promise<void> {
    const depth = headerOf(dav, 'depth')?.trim().toLowerCase() ?? 'infinity';
    if (depth !== '0' && depth !== '1') {
      if (depth === 'infinity') throw new DavError(403, davCondition('propfind-finite-depth'));
      throw new DavError(400);
    }
    const wanted = parsePropfind(await readXmlBody(dav.request));
    const { path } = dav.target;
    const entries: DavEntry[] = [];
    let listing: NodeRow | undefined;
    if (path === '/') {
      entries.push({ path, node: null });
      if (depth === '1') for (const root of await this.files.visibleRoots(dav.user)) entries.push({ path: joinPath('/', root.name), node: root });
    } else {
      const node = await this.access.require(dav.user, path, 'READ');
      entries.push({ path, node });
      if (depth === '1' && node.folder === 1) {
        listing = node;
        const folderHref = hrefOf(path, true);
        for (const child of await this.listings.liveMembers(node.id)) {
          entries.push({ path: joinPath(path, child.name), node: child, href: memberHref(folderHref, child.name, child.folder === 1) });
        }
      }
    }
    const body = await this.properties.multistatus(entries, wanted, listing);
    await reply.code(207).header('content-type', 'application/xml; charset=utf-8').header('cache-control', 'no-store').send(body);
  }

  /**
   * GET and HEAD. A file: DOWNLOAD, the secure-folder approval as a web download (the gate
   * counts it), the same ETag, `Range` (206/416), `If-None-Match` and `If-Modified-Since`
   * (304); served as an attachment that never runs in the app's origin. A folder: READ, and
   * a short text saying it is a WebDAV folder (its members are listed by PROPFIND).
   */
  async get(dav: DavRequest, reply: FastifyReply): Promise<void> {
    const { request } = dav;
    const { path } = dav.target;
    const node = path === '/' ? null : await this.access.require(dav.user, path, 'READ');
    if (!node || node.folder === 1) {
      await reply
        .code(200)
        .header('content-type', 'text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send('Bogwan WebDAV folder: open it with a WebDAV client.\n');
      return;
    }
    await this.access.requireOn(dav.user, node, 'DOWNLOAD');
    settleWhenSent(request, reply, await this.downloads.admit(dav.user, [node]), (error) => request.log.error({ err: error }, 'WebDAV download not settled'));
    const file = await this.downloads.file(node);
    reply
      .header('etag', file.etag)
      .header('last-modified', file.lastModified)
      .header('accept-ranges', 'bytes')
      .header('cache-control', 'private, no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', PREVIEW_CSP);
    const since = request.headers['if-modified-since'];
    const notModified =
      request.headers['if-none-match'] !== undefined
        ? etagMatches(request.headers['if-none-match'], file.etag)
        : since !== undefined && !Number.isNaN(Date.parse(since)) && Math.floor(Date.parse(file.lastModified) / 1000) <= Math.floor(Date.parse(since) / 1000);
    if (notModified) {
      await reply.code(304).send();
      return;
    }
    const ifRange = request.headers['if-range'];
    let range = parseRange(request.headers.range, file.size);
    if (range !== null && ifRange !== undefined && ifRange !== file.etag) range = null;
    if (range === 'unsatisfiable') throw new DavRangeError(file.size);
    reply.header('content-type', davContentType(node.name)).header('content-disposition', contentDisposition('attachment', node.name));
    if (range) {
      reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
        .header('content-length', range.end - range.start + 1);
      await reply.send(request.method === 'HEAD' ? noBody() : await file.open(range));
      return;
    }
    reply.header('content-length', file.size);
    if (request.method === 'HEAD') {
      await reply.send(noBody());
      return;
    }
    // A whole file is recorded before its first byte (as the web's download); ranges are not again.
    const body = await file.open();
    try {
      await this.downloads.recordTransfer(dav.user, 'file.download', [{ node, path }]);
    } catch (error) {
      body.destroy();
      throw error;
    }
    await reply.send(body);
  }
}

/** An empty stream: a HEAD answer keeps the Content-Length of the body it stands for (a string would reset it). */
function noBody(): Readable {
  return Readable.from([]);
}

/** 416 with the size in `Content-Range`. */
export class DavRangeError extends DavError {
  constructor(readonly size: number) {
    super(416);
  }
}
