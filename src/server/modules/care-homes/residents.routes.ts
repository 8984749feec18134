import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  IMPORT_MAX_BYTES,
  ZCareHomeIdParams,
  ZConsentBody,
  ZImportBody,
  ZLettersBody,
  ZResidentStatusBody,
} from '../../../shared/schemas/care-homes';
import { PROGRESS_EXPORT_PATH } from '../../../shared/schemas/care-home-progress';
import { ZPauseBody } from '../../../shared/schemas/stations';
import type { AppDeps } from '../../deps';
import { getRequestContext, requireActor } from '../../plugins/request-context';
import { perIpLimit } from '../../plugins/rate-limit';
import { issueLetters } from './letters.service';
import { exportProgress } from './progress-export.service';
import { setResidentStatus } from './resident-status.service';
import { getProgress, importResidents, recordConsent } from './residents.service';
import { setPaused } from './station-sessions.service';

const LIMITS = {
  read: { max: 600, timeWindow: 15 * 60_000 },
  change: { max: 120, timeWindow: 15 * 60_000 },
  import: { max: 30, timeWindow: 15 * 60_000 },
  // Each letter hashes a new code: a batch of 200 is seconds of work.
  letters: { max: 20, timeWindow: 15 * 60_000 },
  // A whole home's table a time: a few downloads a day is the use.
  export: { max: 30, timeWindow: 15 * 60_000 },
};

/** JSON doubles some characters of a CSV file (quotes); past this Fastify refuses on its own. */
const IMPORT_BODY_LIMIT = 4 * IMPORT_MAX_BYTES;

/** A care home's residents: import, consent, progress, and pausing Memento for one of them. */
export const careHomeResidentRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const read = { rateLimit: perIpLimit(LIMITS.read) };
    const change = { rateLimit: perIpLimit(LIMITS.change) };

    app.get('/api/care-home/residents', { config: read }, async (request) =>
      getProgress(deps, requireActor(request)),
    );

    // A file to keep, never a page to show: nothing in it is run or sniffed as something else.
    app.get(
      PROGRESS_EXPORT_PATH,
      { config: { rateLimit: perIpLimit(LIMITS.export) } },
      async (request, reply) => {
        const { fileName, csv } = await exportProgress(
          deps,
          getRequestContext(request),
          requireActor(request),
        );
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'no-store')
          .send(csv);
      },
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

    app.put(
      '/api/care-home/residents/:id/pause',
      { schema: { params: ZCareHomeIdParams, body: ZPauseBody }, config: change },
      async (request) =>
        setPaused(deps, getRequestContext(request), {
          linkId: request.params.id,
          paused: request.body.paused,
          who: { actor: requireActor(request) },
        }),
    );

    app.put(
      '/api/care-home/residents/:id/status',
      { schema: { params: ZCareHomeIdParams, body: ZResidentStatusBody }, config: change },
      async (request) =>
        setResidentStatus(deps, getRequestContext(request), {
          actor: requireActor(request),
          linkId: request.params.id,
          status: request.body.status,
        }),
    );

    app.post(
      '/api/care-home/letters',
      { schema: { body: ZLettersBody }, config: { rateLimit: perIpLimit(LIMITS.letters) } },
      async (request) =>
        issueLetters(deps, getRequestContext(request), {
          actor: requireActor(request),
          residentIds: request.body.residentIds,
        }),
    );

    // "Pause Memento for me", from the resident's own device.
    app.put(
      '/api/care-home/my-pause',
      { schema: { body: ZPauseBody }, config: change },
      async (request) => {
        const actor = requireActor(request);
        return setPaused(deps, getRequestContext(request), {
          residentUserId: actor.user.id,
          paused: request.body.paused,
          who: { actor },
        });
      },
    );
  };
