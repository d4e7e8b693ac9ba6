import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { RoutePolicy } from '../../http/policy.js';
import { type DavRequest, davRequestOf, headerOf } from './dav-context.js';
import { registerDavErrorHandler } from './dav-errors.js';
import { readTextBody } from './dav-body.js';
import { destinationOf, hrefOf } from './dav-paths.js';
import type { DavReads } from './dav-read.js';
import type { DavWrites } from './dav-write.js';
import type { DavLockHandlers } from './ports.js';

/** Methods that WebDAV adds to HTTP, with whether they carry a body. */
const DAV_METHODS: [string, boolean][] = [
  ['PROPFIND', true],
  ['PROPPATCH', true],
  ['MKCOL', true],
  ['COPY', false],
  ['MOVE', false],
  ['LOCK', true],
  ['UNLOCK', false],
];

const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK';

const category = 'webdav';
const policy = (name: string, description: string): RoutePolicy => ({ category, name, description, level: 1, authentication: 'app-password' });
const policies = {
  options: { category, name: 'dav_options', description: 'WebDAV capabilities (DAV: 1, 2); no sign-in, tells nothing about the tree', level: 0 },
  propfind: policy('dav_propfind', 'WebDAV: properties of a file or folder and its members (READ)'),
  get: policy('dav_get', 'WebDAV: download a file (DOWNLOAD; secure folders need an approval)'),
  put: policy('dav_put', 'WebDAV: upload a file (CREATE new, UPDATE over an existing file)'),
  mkcol: policy('dav_mkcol', 'WebDAV: create a folder (CREATE)'),
  delete: policy('dav_delete', 'WebDAV: move a file or folder to the trash (TRASH)'),
  copy: policy('dav_copy', 'WebDAV: copy a file or folder (COPY)'),
  move: policy('dav_move', 'WebDAV: move or rename a file or folder (MOVE)'),
  proppatch: policy('dav_proppatch', 'WebDAV: set or remove dead properties (UPDATE)'),
  lock: policy('dav_lock', 'WebDAV: lock a file or folder for writing (UPDATE, CREATE for a new file)'),
  unlock: policy('dav_unlock', 'WebDAV: unlock (the lock owner)'),
} satisfies Record<string, RoutePolicy>;

export interface DavRoutesDeps {
  reads: DavReads;
  writes: DavWrites;
  lockHandlers: DavLockHandlers;
}

/**
 * `/dav` and everything under it, in one scope with its own body handling (XML read with a
 * cap, PUT bodies streamed by the handler: nothing is parsed before the handler runs) and
 * its own error answers (WebDAV status codes and `<D:error>` bodies, never the API's JSON).
 */
export async function davRoutes(app: FastifyInstance, { reads, writes, lockHandlers }: DavRoutesDeps): Promise<void> {
  for (const [method, hasBody] of DAV_METHODS) app.addHttpMethod(method, { hasBody });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  registerDavErrorHandler(app);

  const route = (
    method: HTTPMethods | HTTPMethods[] | string,
    routePolicy: RoutePolicy,
    handler: (dav: DavRequest, reply: FastifyReply, request: FastifyRequest) => Promise<void>,
  ) => {
    for (const url of ['/dav', '/dav/*']) {
      app.route({
        method: method as HTTPMethods,
        url,
        config: { policy: routePolicy },
        handler: async (request, reply) => {
          await handler(davRequestOf(request), reply, request);
          return reply;
        },
      });
    }
  };

  for (const url of ['/dav', '/dav/*']) {
    app.route({
      method: 'OPTIONS',
      url,
      config: { policy: policies.options },
      handler: async (_request, reply) =>
        reply.code(200).header('dav', '1, 2').header('allow', ALLOW).header('ms-author-via', 'DAV').header('content-length', 0).send(),
    });
  }
  route('PROPFIND', policies.propfind, (dav, reply) => reads.propfind(dav, reply));
  route('GET', policies.get, (dav, reply) => reads.get(dav, reply));
  route('PUT', policies.put, (dav, reply) => writes.put(dav, reply));
  route('MKCOL', policies.mkcol, (dav, reply) => writes.mkcol(dav, reply));
  route('DELETE', policies.delete, (dav, reply) => writes.delete(dav, reply));
  route('COPY', policies.copy, (dav, reply) => writes.copyOrMove(dav, reply, 'COPY'));
  route('MOVE', policies.move, (dav, reply) => writes.copyOrMove(dav, reply, 'MOVE'));
  route('PROPPATCH', policies.proppatch, (dav, reply) => writes.proppatch(dav, reply));
  route('LOCK', policies.lock, (dav, reply) => sendLockAnswer(dav, reply, lockHandlers.lock.bind(lockHandlers)));
  route('UNLOCK', policies.unlock, (dav, reply) => sendLockAnswer(dav, reply, lockHandlers.unlock.bind(lockHandlers)));
}

/** Hands LOCK and UNLOCK to the lock module with the body read under the same cap, and sends its answer. */
async function sendLockAnswer(dav: DavRequest, reply: FastifyReply, handle: DavLockHandlers['lock']): Promise<void> {
  const headers = dav.request.headers;
  const host = headers.host;
  const answer = await handle({
    account: dav.user,
    path: dav.target.path,
    headers: {
      if: headerOf(dav, 'if'),
      timeout: headerOf(dav, 'timeout'),
      depth: headerOf(dav, 'depth'),
      'lock-token': headerOf(dav, 'lock-token'),
    },
    body: await readTextBody(dav.request),
    hrefOf: (path) => hrefOf(path, false),
    pathOfHref: (href) => {
      try {
        return destinationOf(href, host).path;
      } catch {
        return null;
      }
    },
  });
  reply.code(answer.status).headers(answer.headers);
  if (answer.body) reply.header('content-type', 'application/xml; charset=utf-8');
  await reply.send(answer.body || undefined);
}
