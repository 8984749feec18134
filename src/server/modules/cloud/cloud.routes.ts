import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZCompleteUploadBody,
  ZCreateUploadBody,
  ZSignPartsBody,
  type TCloudStatus,
  type TCreateUploadResult,
  type TPartReceived,
  type TPlayback,
  type TSignPartsResult,
} from '../../../shared/schemas/cloud';
import type { TPlainCopies } from '../../../shared/schemas/encryption';
import type { TVideoIndexEntry } from '../../../shared/schemas/videos';
import type { AppDeps } from '../../deps';
import {
  getRequestContext,
  requireActor,
  requireDevice,
  requireUser,
} from '../../plugins/request-context';
import type { Actor } from '../access/actor';
import { findPairedPhone } from '../pairing/paired-phone';
import { toVideoIndexEntry } from '../videos/videos.presenter';
import { getCloudStatus, getPlayback, streamVideo } from './playback.service';
import { getPlainCopies } from './reseal.service';
import {
  abortUpload,
  completeUpload,
  createUpload,
  receivePart,
  signParts,
} from './uploads.service';

const ZUploadParams = z.object({ uploadId: z.uuid({ error: 'Upload id must be a UUID' }) });
const ZPartParams = ZUploadParams.extend({
  partNumber: z.coerce.number().int().min(1, 'Part numbers start at 1').max(100_000),
});
const ZVideoParams = z.object({ id: z.uuid({ error: 'Video id must be a UUID' }) });
const LINK_ENDED = 'This link has ended. Please open the message again.';
const ZContentQuery = z.object({
  key: z.string({ error: LINK_ENDED }).max(64, LINK_ENDED),
  type: z.string({ error: LINK_ENDED }).max(100, LINK_ENDED),
  expires: z.coerce.number({ error: LINK_ENDED }).int(LINK_ENDED),
  sig: z.string({ error: LINK_ENDED }).max(100, LINK_ENDED),
});

/** Sending videos to the cloud, and watching them from there. */
export const cloudRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    // Each step of an upload: a phone paired through import-from-mobile (its token, checked on
    // every call), else the signed-in device.
    const uploadActor = async (request: FastifyRequest): Promise<Actor> =>
      (await findPairedPhone(deps, request))?.actor ?? requireActor(request);

    app.get('/api/encryption/plain-copies', async (request): Promise<TPlainCopies> =>
      getPlainCopies(deps, requireActor(request)),
    );

    app.post(
      '/api/uploads',
      { schema: { body: ZCreateUploadBody } },
      async (request): Promise<TCreateUploadResult> =>
        createUpload(deps, { actor: requireActor(request), body: request.body }),
    );

    app.post(
      '/api/uploads/:uploadId/sign',
      { schema: { params: ZUploadParams, body: ZSignPartsBody } },
      async (request): Promise<TSignPartsResult> =>
        signParts(deps, await uploadActor(request), request.params.uploadId, request.body),
    );

    app.post(
      '/api/uploads/:uploadId/complete',
      { schema: { params: ZUploadParams, body: ZCompleteUploadBody } },
      async (request): Promise<TVideoIndexEntry> =>
        toVideoIndexEntry(
          await completeUpload(deps, getRequestContext(request), await uploadActor(request), {
            uploadId: request.params.uploadId,
            parts: request.body.parts,
          }),
        ),
    );

    app.delete(
      '/api/uploads/:uploadId',
      { schema: { params: ZUploadParams } },
      async (request, reply) => {
        await abortUpload(deps, await uploadActor(request), request.params.uploadId);
        return reply.status(204).send();
      },
    );

    // File mode's part endpoint takes raw bytes: its own parser passes the stream through, so a
    // part is written to disk as it arrives and never held in memory.
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
      raw
        .withTypeProvider<ZodTypeProvider>()
        .put(
          '/api/uploads/:uploadId/parts/:partNumber',
          { schema: { params: ZPartParams } },
          async (request, reply): Promise<TPartReceived> => {
            const body = (request.body as Readable | undefined) ?? request.raw;
            const etag = await receivePart(deps, await uploadActor(request), {
              uploadId: request.params.uploadId,
              partNumber: request.params.partNumber,
              body,
            });
            reply.header('etag', etag);
            return { partNumber: request.params.partNumber, etag };
          },
        );
    });

    app.get('/api/cloud/status', async (request): Promise<TCloudStatus> =>
      getCloudStatus(deps, { user: requireUser(request), device: requireDevice(request) }),
    );

    app.get(
      '/api/videos/:id/playback',
      { schema: { params: ZVideoParams } },
      async (request): Promise<TPlayback> =>
        getPlayback(deps, getRequestContext(request), {
          actor: requireActor(request),
          videoId: request.params.id,
        }),
    );

    // A <video> element sends no X-Device-ID: this route is authorised by the signed URL that
    // GET /playback handed out after its access check (as S3's presigned GET is).
    app.get(
      '/api/videos/:id/content',
      {
        schema: { params: ZVideoParams, querystring: ZContentQuery },
        config: { isDeviceOptional: true },
      },
      async (request, reply) =>
        streamVideo(
          deps,
          { videoId: request.params.id, query: request.query, range: request.headers.range },
          reply,
        ),
    );
  };
