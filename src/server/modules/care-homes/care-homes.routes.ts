import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CARE_HOME_MESSAGES, LOGO_TYPES, ZCareHomeBody } from '../../../shared/schemas/care-homes';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { getRequestContext, requireActor } from '../../plugins/request-context';
import { perIpLimit } from '../../plugins/rate-limit';
import {
  getCareHome,
  getMyCareHome,
  readLogo,
  removeLogo,
  saveCareHome,
  saveLogo,
} from './care-homes.service';

/**
 * Per IP: a home's office shares one address among its managers; the logo is fetched by every
 * family page and email that shows it.
 */
const LIMITS = {
  read: { max: 600, timeWindow: 15 * 60_000 },
  change: { max: 120, timeWindow: 15 * 60_000 },
  logo: { max: 2000, timeWindow: 15 * 60_000 },
};

/** A phone's photo is let in far enough to be told, in words, that it is too large. */
const LOGO_BODY_LIMIT = 8 * 1024 * 1024;

const ZSlugParams = z.object({
  slug: z.string().regex(/^[a-z0-9-]{1,60}$/, CARE_HOME_MESSAGES.notFound),
});

/** The care home's manager: set-up and branding (staff and residents have their own routes). */
export const careHomeRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const read = { rateLimit: perIpLimit(LIMITS.read) };
    const change = { rateLimit: perIpLimit(LIMITS.change) };

    // Only this plugin's logo route reads a picture as its body.
    app.addContentTypeParser(
      [...LOGO_TYPES],
      { parseAs: 'buffer', bodyLimit: LOGO_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );

    app.get('/api/care-home', { config: read }, async (request) =>
      getCareHome(deps, requireActor(request)),
    );

    // A resident's own account: their home, and whether Memento is paused for them there.
    app.get('/api/care-home/mine', { config: read }, async (request) =>
      getMyCareHome(deps, requireActor(request)),
    );

    app.put(
      '/api/care-home',
      { schema: { body: ZCareHomeBody }, config: change },
      async (request) =>
        saveCareHome(deps, getRequestContext(request), {
          actor: requireActor(request),
          body: request.body,
        }),
    );

    app.put(
      '/api/care-home/logo',
      { config: change, bodyLimit: LOGO_BODY_LIMIT },
      async (request) => {
        if (!Buffer.isBuffer(request.body)) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', CARE_HOME_MESSAGES.logoType);
        }
        return saveLogo(deps, getRequestContext(request), {
          actor: requireActor(request),
          bytes: request.body,
          declaredType: (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase(),
        });
      },
    );

    app.delete('/api/care-home/logo', { config: change }, async (request) =>
      removeLogo(deps, getRequestContext(request), requireActor(request)),
    );

    // Shown on families' pages and in emails, so no device or session is asked for; only ever
    // sent as the picture it was checked to be.
    app.get(
      '/api/care-homes/:slug/logo',
      {
        schema: { params: ZSlugParams },
        config: { rateLimit: perIpLimit(LIMITS.logo), isDeviceOptional: true },
      },
      async (request, reply) => {
        const logo = await readLogo(deps, request.params.slug);
        if (!logo) throw new AppError('NOT_FOUND', 'This care home has no logo.');
        return reply
          .header('content-type', logo.type)
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('content-disposition', 'inline')
          .header('cross-origin-resource-policy', 'cross-origin')
          .header('cache-control', 'public, max-age=300')
          .send(logo.bytes);
      },
    );
  };
