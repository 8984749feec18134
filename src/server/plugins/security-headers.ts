import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's headers, worked out once at start-up and set on every response.
 * @fastify/helmet rebuilt Helmet, and parsed the whole Content-Security-Policy, on every request;
 * the headers never change while the server runs, so they are computed once here.
 */
export function computeSecurityHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)(
    {} as IncomingMessage,
    response as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  return headers;
}

/**
 * Headers that only act on a document (a page the browser shows, frames or runs scripts in). A
 * script or a stylesheet is never one, and sent with each of the dozen files a first visit loads
 * they took a real share of its budget (docs/benchmarks.md, 'Asset headers').
 */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-frame-options',
  'x-xss-protection',
  'x-download-options',
  'x-dns-prefetch-control',
];

/** The web build's hashed scripts and stylesheets live under /assets/ (never a page). */
const ASSETS = '/assets/';
const SCRIPT_OR_STYLESHEET_END = /\.(?:js|css)(?:[?#]|$)/;
/** A worker's script is its own document: the policy it runs under comes with it. */
const WORKER_SCRIPT = /\.worker-[\w-]+\.js(?:[?#]|$)/;

export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>) {
  const headers = computeSecurityHeaders(options);
  const subresourceHeaders = Object.fromEntries(
    Object.entries(headers).filter(([name]) => !DOCUMENT_ONLY_HEADERS.includes(name)),
  );
  app.addHook('onRequest', (request, reply, done) => {
    const isSubresource =
      request.url.startsWith(ASSETS) &&
      SCRIPT_OR_STYLESHEET_END.test(request.url) &&
      !WORKER_SCRIPT.test(request.url);
    reply.headers(isSubresource ? subresourceHeaders : headers);
    done();
  });
}
