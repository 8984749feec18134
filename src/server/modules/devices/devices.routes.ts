import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { MESSAGES } from '../../../shared/domain/errors';
import {
  ZDeviceMoveCompleteBody,
  ZDeviceMoveRequestBody,
  ZDeviceRegisterBody,
  ZResetDeviceBody,
  ZSetPrimaryBody,
} from '../../../shared/schemas/devices';
import type { AppDeps } from '../../deps';
import {
  clearSessionCookie,
  getRequestContext,
  requireDevice,
  requireUser,
  setSessionCookie,
} from '../../plugins/request-context';
import { toUserResponse } from '../users/users.presenter';
import { completeDeviceAdd, requestDeviceAdd, setPrimaryDevice } from './added-devices.service';
import { completeDeviceMove, requestDeviceMove } from './device-move.service';
import { getDeviceStatus, registerDevice, resetDevice } from './devices.service';
import { perIpLimit } from '../../plugins/rate-limit';

export const deviceRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/device/register',
      {
        schema: { body: ZDeviceRegisterBody },
        config: {
          isDeviceOptional: true,
          rateLimit: perIpLimit(deps.limits.deviceRegistration, MESSAGES.deviceRateLimited),
        },
      },
      async (request, reply) => {
        const device = await registerDevice(deps.db, {
          fingerprint: request.body.fingerprint,
          userAgent: request.headers['user-agent'],
        });
        return reply.status(201).send({ deviceId: device.id });
      },
    );

    app.get('/api/device/status', async (request) =>
      getDeviceStatus(deps.db, requireDevice(request), request.user),
    );

    app.post(
      '/api/reset-device',
      {
        schema: { body: ZResetDeviceBody },
        config: {
          rateLimit: perIpLimit(deps.limits.deviceReset, MESSAGES.rateLimited),
        },
      },
      async (request, reply) => {
        const result = await resetDevice(deps.db, getRequestContext(request), {
          device: requireDevice(request),
          user: request.user,
          body: request.body,
          now: deps.clock.now(),
        });
        if (result.reset) clearSessionCookie(reply);
        return result;
      },
    );

    const moveRateLimit = perIpLimit(deps.limits.login, MESSAGES.loginRateLimited);

    // Adding this device and moving the account here both end signed in on this device.
    const completeHere =
      (complete: typeof completeDeviceAdd) =>
      async (
        request: FastifyRequest<{ Body: z.infer<typeof ZDeviceMoveCompleteBody> }>,
        reply: FastifyReply,
      ) => {
        const signedIn = await complete(deps, getRequestContext(request), {
          device: requireDevice(request),
          username: request.body.username,
          password: request.body.password ?? '',
          passwordProof: request.body.passwordProof,
          code: request.body.code,
        });
        setSessionCookie(reply, deps.config, signedIn.token, signedIn.expiresAt);
        return toUserResponse(signedIn.user, signedIn.device);
      };

    app.post(
      '/api/device/move/request',
      { schema: { body: ZDeviceMoveRequestBody }, config: { rateLimit: moveRateLimit } },
      async (request) =>
        requestDeviceMove(deps, getRequestContext(request), {
          device: requireDevice(request),
          username: request.body.username,
          password: request.body.password ?? '',
          passwordProof: request.body.passwordProof,
        }),
    );

    // A paid account adds this device as another of its devices, confirmed by an emailed code.
    app.post(
      '/api/device/add/request',
      { schema: { body: ZDeviceMoveRequestBody }, config: { rateLimit: moveRateLimit } },
      async (request) =>
        requestDeviceAdd(deps, getRequestContext(request), {
          device: requireDevice(request),
          username: request.body.username,
          password: request.body.password ?? '',
          passwordProof: request.body.passwordProof,
        }),
    );

    app.post(
      '/api/device/add/complete',
      { schema: { body: ZDeviceMoveCompleteBody }, config: { rateLimit: moveRateLimit } },
      completeHere(completeDeviceAdd),
    );

    app.post('/api/device/set-primary', { schema: { body: ZSetPrimaryBody } }, async (request) =>
      setPrimaryDevice(deps, getRequestContext(request), {
        user: requireUser(request),
        device: requireDevice(request),
        deviceId: request.body.deviceId,
      }),
    );

    app.post(
      '/api/device/move/complete',
      { schema: { body: ZDeviceMoveCompleteBody }, config: { rateLimit: moveRateLimit } },
      completeHere(completeDeviceMove),
    );
  };
