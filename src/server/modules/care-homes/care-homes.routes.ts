import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CARE_HOME_MESSAGES,
  IMPORT_MAX_BYTES,
  LOGO_TYPES,
  ZAcceptInviteBody,
  ZCareHomeBody,
  ZCareHomeIdParams,
  ZConsentBody,
  ZImportBody,
  ZInviteStaffBody,
} from '../../../shared/schemas/care-homes';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { getRequestContext, requireActor } from '../../plugins/request-context';
import { perIpLimit } from '../../plugins/rate-limit';
import { getCareHome, readLogo, removeLogo, saveCareHome, saveLogo } from './care-homes.service';
import { getProgress, importResidents, recordConsent } from './residents.service';
import { acceptStaffInvite, disableStaff, getStaff, inviteStaff } from './staff.service';

/**
 * Per IP: a home's office shares one address among its managers; the logo is fetched by every
 * family page and email that shows it.
 */
const LIMITS = {
  read: { max: 600, timeWindow: 15 * 60_000 },
  change: { max: 120, timeWindow: 15 * 60_000 },
  import: { max: 30, timeWindow: 15 * 60_000 },
  accept: { max: 30, timeWindow: 15 * 60_000 },
  logo: { max: 2000, timeWindow: 15 * 60_000 },
};

/** A phone's photo is let in far enough to be told, in words, that it is too large. */
const LOGO_BODY_LIMIT = 8 * 1024 * 1024;
/** JSON doubles some characters of a CSV file (quotes); past this Fastify refuses on its own. */
const IMPORT_BODY_LIMIT = 4 * IMPORT_MAX_BYTES;

const ZSlugParams = z.object({
  slug: z.string().regex(/^[a-z0-9-]{1,60}$/, CARE_HOME_MESSAGES.notFound),
});

/** The care home's manager and staff: set-up, branding, staff, residents, progress. */
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

    app.get('/api/care-home/staff', { config: read }, async (request) =>
      getStaff(deps, requireActor(request)),
    );

    app.post(
      '/api/care-home/staff',
      { schema: { body: ZInviteStaffBody }, config: change },
      async (request, reply) => {
        const member = await inviteStaff(deps, getRequestContext(request), {
          actor: requireActor(request),
          body: request.body,
        });
        return reply.status(201).send(member);
      },
    );

    app.post(
      '/api/care-home/staff/:id/disable',
      { schema: { params: ZCareHomeIdParams }, config: change },
      async (request) =>
        disableStaff(deps, getRequestContext(request), {
          actor: requireActor(request),
          staffId: request.params.id,
        }),
    );

    app.post(
      '/api/care-home/staff/accept',
      { schema: { body: ZAcceptInviteBody }, config: { rateLimit: perIpLimit(LIMITS.accept) } },
      async (request) =>
        acceptStaffInvite(deps, getRequestContext(request), {
          actor: requireActor(request),
          token: request.body.token,
        }),
    );

    app.get('/api/care-home/residents', { config: read }, async (request) =>
      getProgress(deps, requireActor(request)),
    );

    app.post(
      '/api/care-home/residents/import',
      {
        schema: { body: ZImportBody },
        config: { rateLimit: perIpLimit(LIMITS.import) },
        bodyLimit: IMPORT_BODY_LIMIT,
      },
      async (request) =>
        importResidents(deps, getRequestContext(request), {
          actor: requireActor(request),
          body: request.body,
        }),
    );

    app.put(
      '/api/care-home/residents/:id/consent',
      { schema: { params: ZCareHomeIdParams, body: ZConsentBody }, config: change },
      async (request, reply) => {
        await recordConsent(deps, getRequestContext(request), {
          actor: requireActor(request),
          residentId: request.params.id,
          body: request.body,
        });
        return reply.status(204).send();
      },
    );
  };
