import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** JSON answers at least this long are compressed; shorter ones gain less than the work costs. */
export const COMPRESS_MIN_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

type Encoding = 'br' | 'gzip';

/**
 * The encoding to answer in, from an Accept-Encoding header: brotli before gzip, each
 * when listed (or covered by `*`) with a quality above 0; undefined for none.
 */
export function chooseEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const quality = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    if (name) quality.set(name, Number.isFinite(value) ? value : 0);
  }
  const accepts = (name: Encoding) => (quality.get(name) ?? quality.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return undefined;
}

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const current = typeof vary === 'string' ? vary : Array.isArray(vary) ? vary.join(', ') : '';
  if (/(^|,)\s*(\*|accept-encoding)\s*(,|$)/i.test(current)) return;
  reply.header('vary', current ? `${current}, Accept-Encoding` : 'Accept-Encoding');
}

/** Only JSON built in memory: file downloads, WebDAV bodies and streams pass untouched. */
function isCompressibleJson(request: FastifyRequest, reply: FastifyReply, payload: unknown): payload is string | Buffer {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return false;
  if (Buffer.byteLength(payload) < COMPRESS_MIN_BYTES) return false;
  if (request.headers.range !== undefined || reply.statusCode === 206) return false;
  if (reply.getHeader('content-encoding') !== undefined) return false;
  const type = String(reply.getHeader('content-type') ?? '');
  return /^application\/(.+\+)?json\b/i.test(type);
}

/**
 * Compresses JSON answers of 1 KB and more for clients that accept brotli or gzip, with
 * `Vary: Accept-Encoding` on every such answer (compressed or not) so caches keep both.
 */
export function registerJsonCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!isCompressibleJson(request, reply, payload)) return payload;
    addVary(reply);
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    const compressed =
      encoding === 'br'
        ? await brotli(payload, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } })
        : await gzip(payload, { level: 6 });
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return compressed;
  });
}
