import { isInside } from '@bogwan/contracts';
import type { FastifyReply } from 'fastify';
import type { AccessService } from '../files/access.service.js';
import type { FileTreeService } from '../files/file-tree.js';
import type { FilesService } from '../files/files.service.js';
import type { MovesService } from '../files/moves.service.js';
import type { NodeRow } from '../files/ports.js';
import { type DavRequest, type DavWriteGuard, headerOf, parentOf } from './dav-context.js';
import { DavError } from './dav-errors.js';
import { declaredLength, hasBody, readXmlBody } from './dav-body.js';
import { destinationOf, hrefOf, splitItem } from './dav-paths.js';
import type { DavUploads } from './dav-put.js';
import type { DeadPropertiesRepo, PropertyChange } from './dead-properties.repo.js';
import { etagOf, isLiveProperty } from './properties.js';
import { DAV_NS, contentXml, elementXml, elementsOf, escapeXml } from './xml.js';

/** Dead properties one item may hold (PROPPATCH past it: 507). */
export const MAX_DEAD_PROPERTIES = 200;

/**
 * The WebDAV methods that change the tree: PUT, MKCOL, DELETE, COPY, MOVE, PROPPATCH. Each
 * passes the web's permission check (through the same services as the web's calls, so
 * activity, webhooks and realtime follow) and the lock check before it changes anything.
 */
export class DavWrites {
  constructor(
    private readonly tree: FileTreeService,
    private readonly access: AccessService,
    private readonly files: FilesService,
    private readonly moves: MovesService,
    private readonly uploads: DavUploads,
    private readonly dead: DeadPropertiesRepo,
    private readonly guard: DavWriteGuard,
  ) {}

  /** PUT: 201 for a new file, 204 over an existing one, with the content's ETag. */
  async put(dav: DavRequest, reply: FastifyReply): Promise<void> {
    const { path } = dav.target;
    const length = declaredLength(dav.request);
    const plan = await this.uploads.plan(dav.caller, path, length);
    await this.guard.assert(
      dav,
      plan.existing
        ? [{ path, deep: false }]
        : [
            { path, deep: false },
            { path: parentOf(path), deep: false },
          ],
    );
    // The name taken while the body was stored: the PUT replaces that file, checked as a PUT over it.
    const replaceTaken = async (taken: NodeRow) => {
      await this.access.requireOn(dav.user, taken, 'UPDATE', path);
      await this.guard.assert(dav, [{ path, deep: false }]);
    };
    const stored = await this.uploads.store(plan, dav.request.raw, length, replaceTaken);
    await reply
      .code(stored.created ? 201 : 204)
      .header('etag', etagOf(stored.node) ?? '')
      .send();
  }

  /** MKCOL: CREATE on the parent; 201; taken 405, missing parent 409, a body 415. */
  async mkcol(dav: DavRequest, reply: FastifyReply): Promise<void> {
    if (hasBody(dav.request)) throw new DavError(415);
    const { path } = dav.target;
    if (path === '/' || (await this.tree.resolve(path))) throw new DavError(405);
    const { folder, name } = splitItem(path);
    if (folder !== '/') {
      const parent = await this.tree.resolve(folder);
      if (!parent || parent.folder !== 1) throw new DavError(409);
    }
    await this.guard.assert(dav, [
      { path, deep: false },
      { path: folder, deep: false },
    ]);
    await this.files.createFolder(dav.caller, { name, path: folder });
    await reply.code(201).send();
  }

  /** DELETE: to the trash as the web's delete (TRASH); 204. Depth other than infinity is 400. */
  async delete(dav: DavRequest, reply: FastifyReply): Promise<void> {
    const { path } = dav.target;
    if (path === '/') throw new DavError(403);
    const depth = headerOf(dav, 'depth')?.trim().toLowerCase();
    if (depth !== undefined && depth !== 'infinity') throw new DavError(400);
    if (!(await this.tree.resolve(path))) throw new DavError(404);
    await this.guard.assert(dav, [
      { path, deep: true },
      { path: parentOf(path), deep: false },
    ]);
    await this.moves.trash(dav.caller, [path]);
    await this.guard.release(path);
    await reply.code(204).send();
  }

  /**
   * COPY and MOVE (RFC 4918 9.8, 9.9) through the web's copy and move (their permissions and
   * secure-folder rules). Destination on another host 502, outside `/dav/` 400; onto itself or
   * into itself 403; a missing destination folder 409; an existing destination with
   * `Overwrite: F` 412, else it goes to the trash first (TRASH on it) and the answer is 204.
   * COPY takes Depth 0 (a folder without its members) or infinity; MOVE only infinity.
   */
  async copyOrMove(dav: DavRequest, reply: FastifyReply, kind: 'COPY' | 'MOVE'): Promise<void> {
    const source = dav.target.path;
    const destination = destinationOf(headerOf(dav, 'destination'), dav.request.headers.host).path;
    const depth = headerOf(dav, 'depth')?.trim().toLowerCase() ?? 'infinity';
    if (depth !== 'infinity' && !(kind === 'COPY' && depth === '0')) throw new DavError(400);
    const overwrite = headerOf(dav, 'overwrite')?.trim().toUpperCase() ?? 'T';
    if (overwrite !== 'T' && overwrite !== 'F') throw new DavError(400);
    if (source === '/' || destination === '/' || parentOf(source) === '/' || parentOf(destination) === '/') throw new DavError(403);
    // Onto or into itself, or onto a folder that holds the source (overwriting it would trash the source).
    if (isInside(destination, source) || isInside(source, destination)) throw new DavError(403);
    const node = await this.access.require(dav.user, source, kind === 'MOVE' ? 'MOVE' : 'COPY');
    const { folder, name } = splitItem(destination);
    const target = await this.tree.resolve(folder);
    if (!target || target.folder !== 1) throw new DavError(409);
    const existing = await this.tree.resolve(destination);
    if (existing && overwrite === 'F') throw new DavError(412);
    const targets = [
      { path: destination, deep: true },
      { path: folder, deep: false },
    ];
    if (kind === 'MOVE') targets.push({ path: source, deep: true }, { path: parentOf(source), deep: false });
    await this.guard.assert(dav, targets);
    if (existing) {
      await this.moves.trash(dav.caller, [destination]);
      await this.guard.release(destination);
    }
    const { folder: sourceFolder, name: sourceName } = splitItem(source);
    const request = { path: sourceFolder, name: sourceName, newPath: folder, newName: name, onConflict: 'error' as const };
    if (kind === 'MOVE') {
      await this.moves.move(dav.caller, request);
      await this.guard.release(source);
    } else if (depth === '0' && node.folder === 1) {
      const created = await this.files.createFolder(dav.caller, { name, path: folder });
      await this.dead.copy(node.id, created._id);
    } else {
      const copied = await this.moves.copy(dav.caller, request);
      await this.dead.copy(node.id, copied._id);
    }
    await reply.code(existing ? 204 : 201).send();
  }

  /**
   * PROPPATCH: UPDATE on the item; the changes in document order, all or none. Live
   * properties cannot be set or removed (403 for them, 424 for the rest, nothing changed).
   */
  async proppatch(dav: DavRequest, reply: FastifyReply): Promise<void> {
    const { path } = dav.target;
    const body = await readXmlBody(dav.request);
    if (!body || body.ns !== DAV_NS || body.local !== 'propertyupdate') throw new DavError(400);
    if (path === '/') throw new DavError(403);
    const node = await this.access.require(dav.user, path, 'UPDATE');
    const changes: PropertyChange[] = [];
    for (const action of elementsOf(body)) {
      if (action.ns !== DAV_NS || (action.local !== 'set' && action.local !== 'remove')) throw new DavError(400);
      for (const prop of elementsOf(action).filter((e) => e.ns === DAV_NS && e.local === 'prop')) {
        for (const element of elementsOf(prop)) {
          changes.push({ ns: element.ns, name: element.local, value: action.local === 'set' ? contentXml(element) : undefined });
        }
      }
    }
    await this.guard.assert(dav, [{ path, deep: false }]);
    const protectedOnes = changes.filter((change) => isLiveProperty({ ns: change.ns, name: change.name }));
    const statuses = new Map<string, string>();
    const key = (c: PropertyChange) => `${c.ns}\u0000${c.name}`;
    if (protectedOnes.length > 0) {
      for (const change of changes) statuses.set(key(change), protectedOnes.includes(change) ? '403 Forbidden' : '424 Failed Dependency');
    } else {
      const applied = await this.dead.apply(node.id, changes, MAX_DEAD_PROPERTIES);
      for (const change of changes) statuses.set(key(change), applied ? '200 OK' : '507 Insufficient Storage');
    }
    const byStatus = new Map<string, string[]>();
    for (const change of changes) {
      const status = statuses.get(key(change))!;
      const list = byStatus.get(status) ?? [];
      const element = elementXml(change.ns, change.name, '');
      if (!list.includes(element)) list.push(element);
      byStatus.set(status, list);
    }
    const propstats = [...byStatus].map(
      ([status, props]) => `<D:propstat><D:prop>${props.join('')}</D:prop><D:status>HTTP/1.1 ${status}</D:status></D:propstat>`,
    );
    const xml = `<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:"><D:response><D:href>${escapeXml(hrefOf(path, node.folder === 1))}</D:href>${propstats.join('')}</D:response></D:multistatus>\n`;
    await reply.code(207).header('content-type', 'application/xml; charset=utf-8').send(xml);
  }
}
