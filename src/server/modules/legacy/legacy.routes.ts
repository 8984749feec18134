import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAskingBody,
  ZAskingParams,
  ZCancelLinkBody,
  ZLegacyRequestBody,
  ZLegacySettings,
  ZRelease,
} from '../../../shared/schemas/legacy';
import { getRequestContext, requireActor, requireUser } from '../../plugins/request-context';
import { perIpLimit } from '../../plugins/rate-limit';
import { Permission, requireAccess } from '../access/access';
import type { Actor } from '../access/actor';
import { getLegacyState, saveLegacySettings, type LegacyDeps } from './legacy.service';
import { setMessageRelease } from './message-release.service';
import { endRelease } from './release-end.service';
import { setNextOfKinAsking } from './release-requests.service';
import { codeGiven } from '../recipients/access-codes';
import {
  cancelReleaseByLink,
  cancelReleaseSignedIn,
  requestRelease,
} from './waiting-release.service';

/** The asking account once it may take `permission`: the access rules hold the words. */
function ownerFor(actor: Actor, permission: Permission) {
  requireAccess(actor, permission);
  return actor.user;
}

/** An IANA zone the server's Intl knows; anything else is ignored rather than refused. */
const ZTimeZone = z
  .string()
  .max(64)
  .optional()
  .transform((zone) => {
    if (!zone) return null;
    try {
      new Intl.DateTimeFormat('en-GB', { timeZone: zone });
      return zone;
    } catch {
      return null;
    }
  });

export const legacyRoutes =
  (
    deps: LegacyDeps & { limits: { emergency: { max: number; timeWindow: number } } },
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const codeLimit = { rateLimit: perIpLimit(deps.limits.emergency) };

    app.get('/api/legacy', async (request) => {
      const owner = ownerFor(requireActor(request), Permission.LegacyOwner);
      return getLegacyState(deps, owner.id);
    });

    app.put(
      '/api/legacy/settings',
      { schema: { body: ZLegacySettings.extend({ timeZone: ZTimeZone }) } },
      async (request) => {
        const owner = ownerFor(requireActor(request), Permission.LegacySettings);
        const { timeZone, ...settings } = request.body;
        return saveLegacySettings(deps, getRequestContext(request), { owner, settings, timeZone });
      },
    );

    // Any of the owner's signed-in devices may cancel: speed matters more than which device.
    app.post('/api/legacy/cancel', async (request) => {
      const owner = ownerFor(requireActor(request), Permission.LegacyOwner);
      return cancelReleaseSignedIn(deps, getRequestContext(request), {
        owner,
        now: deps.clock.now(),
      });
    });

    // Like cancelling, any signed-in device of the owner: every hour the release stands counts.
    app.post('/api/legacy/end', async (request) => {
      const owner = ownerFor(requireActor(request), Permission.LegacyOwner);
      await endRelease(deps, getRequestContext(request), { owner, now: deps.clock.now() });
      return getLegacyState(deps, owner.id);
    });

    app.put(
      '/api/legacy/next-of-kin/:nextOfKinId/asking',
      { schema: { params: ZAskingParams, body: ZAskingBody } },
      async (request) => {
        const owner = ownerFor(requireActor(request), Permission.LegacyOwner);
        await setNextOfKinAsking(deps, getRequestContext(request), {
          owner,
          nextOfKinId: request.params.nextOfKinId,
          isAllowed: request.body.isAllowed,
          now: deps.clock.now(),
        });
        return getLegacyState(deps, owner.id);
      },
    );

    app.post(
      '/api/legacy/cancel-link',
      { schema: { body: ZCancelLinkBody }, config: codeLimit },
      async (request) =>
        cancelReleaseByLink(deps, getRequestContext(request), {
          token: request.body.token,
          now: deps.clock.now(),
        }),
    );

    app.post(
      '/api/legacy/requests',
      { schema: { body: ZLegacyRequestBody }, config: codeLimit },
      async (request, reply) => {
        const nextOfKin = requireUser(request);
        const answer = await requestRelease(deps, getRequestContext(request), {
          nextOfKin,
          given: codeGiven({ code: request.body.emergencyCode, proof: request.body.codeProof }),
          now: deps.clock.now(),
        });
        return reply.code(201).send(answer);
      },
    );

    app.put(
      '/api/videos/:id/release',
      {
        schema: {
          params: z.object({ id: z.uuid({ error: 'Video id must be a UUID' }) }),
          body: ZRelease.and(z.object({ timeZone: ZTimeZone })),
        },
      },
      async (request) => {
        const owner = ownerFor(requireActor(request), Permission.MessageRelease);
        return setMessageRelease(deps, getRequestContext(request), {
          owner,
          videoId: request.params.id,
          release: { rule: request.body.rule, at: request.body.at },
          timeZone: request.body.timeZone,
        });
      },
    );
  };
