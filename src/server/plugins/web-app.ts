import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '../../shared/domain/errors';
import { PROJECT_ROOT } from '../lib/paths';

export const WEB_DIST_DIR = path.join(PROJECT_ROOT, 'dist/web');

/**
 * Serves the built web app: hashed assets cached for a year, everything else revalidated, and
 * index.html for every other GET so that client-side routes (and the 404 page) work.
 */
export async function registerWebApp(app: FastifyInstance, webDir = WEB_DIST_DIR) {
  const hasWebApp = existsSync(path.join(webDir, 'index.html'));

  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webDir,
      index: false,
      // The API is never a file; unknown /api paths fall through to the JSON 404 below.
      allowedPath: (pathName) => !pathName.startsWith('/api/'),
      setHeaders(res, filePath) {
        const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header(
          'cache-control',
          isHashedAsset
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=0, must-revalidate',
        );
      },
    });
  }

  if (hasWebApp) {
    // The static handler treats '/' as a directory; the app's front door is index.html.
    app.get('/', (_request, reply) => reply.sendFile('index.html', webDir));
  }

  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/api/') || request.url === '/api';
    const isPageRequest = request.method === 'GET' || request.method === 'HEAD';
    // A missing asset (say, from a build newer than this server) must not come back as HTML.
    const isAsset = request.url.startsWith('/assets/') || /\.[a-z0-9]+(\?|$)/i.test(request.url);
    if (isApi || !isPageRequest || isAsset) {
      return reply.status(404).send({ code: 'NOT_FOUND', message: MESSAGES.notFound });
    }
    if (!hasWebApp) {
      return reply
        .status(404)
        .type('text/plain')
        .send('The web app is not built. Run `npm run build`.');
    }
    return reply.sendFile('index.html', webDir);
  });
}
