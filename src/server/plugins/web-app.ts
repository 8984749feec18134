import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '../../shared/domain/errors';
import {
  BANNER_POSTER,
  CONFIG_ELEMENT_ID,
  CONFIG_PLACEHOLDER,
  COOKIE_CHOICE_SCRIPT,
  PRERENDERED_PAGES,
  PRERENDER_DIR,
  PRERENDER_MANIFEST,
  type TPrerenderManifest,
} from '../../shared/domain/first-paint';
import type { TPublicConfig } from '../../shared/schemas/config';
import { PROJECT_ROOT } from '../lib/paths';
import { SESSION_COOKIE } from './request-context';

export const WEB_DIST_DIR = path.join(PROJECT_ROOT, 'dist/web');

/** For the Content-Security-Policy: the one inline script the rendered pages carry. */
export const FIRST_PAINT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(COOKIE_CHOICE_SCRIPT).digest('base64')}'`;

const PAGE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';
const SHELL_RETRY_MS = 50;

interface WebAppOptions {
  webDir?: string;
  publicConfig: TPublicConfig;
}

/** The config as a data block (never run, so the CSP allows it); `<` escaped to stay inside. */
function renderConfigElement(publicConfig: TPublicConfig): string {
  const json = JSON.stringify(publicConfig).replaceAll('<', '\\u003c');
  return `<script type="application/json" id="${CONFIG_ELEMENT_ID}">${json}</script>`;
}

/**
 * A visitor's first screen, rendered at build time: only for a request with no
 * session cookie (nobody can be signed in) and no query (which may ask for another view). Read
 * on each request, so a rebuild is served at once, as the assets are.
 */
async function readVisitorPage(
  webDir: string,
  request: FastifyRequest,
  address: string,
  hasAnalytics: boolean,
): Promise<string | null> {
  if (request.cookies[SESSION_COOKIE] !== undefined || request.url.includes('?')) return null;
  const dir = path.join(webDir, PRERENDER_DIR);
  try {
    const manifest = JSON.parse(
      await readFile(path.join(dir, PRERENDER_MANIFEST), 'utf8'),
    ) as TPrerenderManifest;
    const files = manifest.pages[address];
    if (!files) return null;
    return await readFile(
      path.join(dir, hasAnalytics ? files.withAnalytics : files.withoutAnalytics),
      'utf8',
    );
  } catch {
    return null;
  }
}

const POSTER_PRELOAD = `<link rel="preload" as="image" href="${BANNER_POSTER}" fetchpriority="high">`;

/**
 * The shell for `/` asked with a session cookie is a returning person's dashboard: its largest
 * picture is named in the head, to download with the HTML. Any other shell is sent as it is.
 */
function withDashboardPoster(request: FastifyRequest, shell: string): string {
  const isDashboard = request.url === '/' || request.url.startsWith('/?');
  if (!isDashboard || request.cookies[SESSION_COOKIE] === undefined) return shell;
  return shell.replace('</head>', `${POSTER_PRELOAD}</head>`);
}

/**
 * The app's shell, index.html, read whole in one open file, so a request never mixes two builds
 * (a new build moves in beside a running server; sending by path, as the static
 * handler does, took the length from one build's file and the bytes from the next). Read again
 * once if it is missing for the microseconds between the two renames of that move.
 */
async function readShell(webDir: string): Promise<string> {
  const file = path.join(webDir, 'index.html');
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await new Promise((resolve) => setTimeout(resolve, SHELL_RETRY_MS));
    return readFile(file, 'utf8');
  }
}

/**
 * Serves the built web app: hashed assets cached for a year, everything else revalidated, and
 * index.html for every other GET so that client-side routes (and the 404 page) work. The first
 * screens a visitor meets come rendered.
 */
export async function registerWebApp(app: FastifyInstance, options: WebAppOptions) {
  const webDir = options.webDir ?? WEB_DIST_DIR;
  const hasWebApp = existsSync(path.join(webDir, 'index.html'));
  const configElement = renderConfigElement(options.publicConfig);
  const hasAnalytics = options.publicConfig.analyticsScriptUrl !== null;
  // The rendered sign-in screen has no provider buttons: with a provider set up, the app draws it.
  const hasRenderedPages = options.publicConfig.externalProviders.length === 0;

  /**
   * A page rendered at build time, else the app's shell, with an ETag of its words: a browser
   * that asks again with it (every visit: pages are revalidated) is answered 304, no body.
   */
  const sendHtml = async (request: FastifyRequest, reply: FastifyReply, page: string | null) => {
    const html = page ?? withDashboardPoster(request, await readShell(webDir));
    // Weak: the same words are sent compressed or not (@fastify/compress), byte for byte different.
    const etag = `W/"${createHash('sha256').update(html).digest('base64url')}"`;
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', PAGE_CACHE_CONTROL)
      .header('etag', etag);
    const asked = request.headers['if-none-match']?.split(',').map((tag) => tag.trim());
    if (asked?.includes(etag)) return reply.code(304).send();
    return reply.send(html);
  };

  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webDir,
      index: false,
      // The build writes .br and .gz beside each asset (vite.config.ts); others compress on the fly.
      preCompressed: true,
      // The API is never a file; unknown /api paths fall through to the JSON 404 below.
      allowedPath: (pathName) =>
        !pathName.startsWith('/api/') && !pathName.startsWith(`/${PRERENDER_DIR}/`),
      setHeaders(res, filePath) {
        const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header(
          'cache-control',
          isHashedAsset ? 'public, max-age=31536000, immutable' : PAGE_CACHE_CONTROL,
        );
        // A file whose name is its content is never asked again, whole or in part: the headers
        // for asking again cost a first visit about 100 bytes a file.
        if (isHashedAsset) {
          res.removeHeader('etag');
          res.removeHeader('last-modified');
          res.removeHeader('accept-ranges');
        }
      },
    });

    const sendPage = async (request: FastifyRequest, reply: FastifyReply, address: string) => {
      // The same address answers a visitor and a signed-in person differently.
      reply.header('vary', 'Cookie');
      const page = hasRenderedPages
        ? await readVisitorPage(webDir, request, address, hasAnalytics)
        : null;
      return sendHtml(request, reply, page?.replace(CONFIG_PLACEHOLDER, configElement) ?? null);
    };
    // '/' included: the static handler treats it as a directory; the front door is a page.
    for (const address of Object.keys(PRERENDERED_PAGES)) {
      app.get(address, (request, reply) => sendPage(request, reply, address));
    }
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
    return sendHtml(request, reply, null);
  });
}
