import fs from 'node:fs';
import path from 'node:path';
import { isAppPagePath } from '@bogwan/contracts';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.js';
import { applyPolicyToScope } from './policy.js';
import { APP_CSP } from './security-headers.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built web app on the same port: hashed assets with long-lived caching,
 * everything else revalidated, and `index.html` for any non-API path: with 200 on the
 * app's pages (APP_PAGE_PATHS), with 404 on any other path (the app's router draws its
 * own 404 page there). Answers false when no build is found.
 */
export async function registerWebApp(app: FastifyInstance, webDir: string): Promise<boolean> {
  const indexFile = path.join(webDir, 'index.html');
  const hasBuild = fs.existsSync(indexFile);

  if (hasBuild) {
    await app.register(async (scope) => {
      applyPolicyToScope(scope, {
        category: 'web',
        name: 'web_app',
        description: 'The web application and its assets',
        level: 0,
        licenceExempt: true,
        unlisted: true,
      });
      // A byte range is a range of the file itself, never of a compressed copy.
      scope.addHook('onRequest', async (request) => {
        if (request.headers.range !== undefined) delete request.headers['accept-encoding'];
      });
      await scope.register(fastifyStatic, {
        root: webDir,
        wildcard: false,
        index: false,
        // The build writes .br and .gz copies (apps/web/build/compress-assets.ts): sent by
        // Accept-Encoding, with Vary and the copy's own length and ETag.
        preCompressed: true,
        setHeaders(res, filePath) {
          const isAsset = filePath.startsWith(path.join(webDir, 'assets') + path.sep);
          res.header('cache-control', isAsset ? IMMUTABLE : 'no-cache');
          if (filePath.endsWith('.html')) res.header('content-security-policy', APP_CSP);
        },
      });
    });
  } else {
    app.log.warn({ webDir }, 'web app build not found: only the API is served (run `npm run build`)');
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isAppPath = (request.method === 'GET' || request.method === 'HEAD') && !/^\/(api|socket\.io|assets)(\/|$)/.test(pathname);
    if (hasBuild && isAppPath) {
      // Read per request (the OS caches it): a rebuilt app is served without a restart.
      const indexHtml = await fs.promises.readFile(indexFile);
      return reply
        .code(isAppPagePath(pathname) ? 200 : 404)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('content-security-policy', APP_CSP)
        .send(indexHtml);
    }
    throw notFound();
  });
  return hasBuild;
}
