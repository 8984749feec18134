import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '../../../shared/domain/errors';
import { ZDeviceRegisterBody, ZResetDeviceBody } from '../../../shared/schemas/devices';
import type { AppDeps } from '../../app';
import { AppError } from '../../errors';
import {
  clearSessionCookie,
  getRequestContext,
  requireDevice,
} from '../../plugins/request-context';
import { getDeviceStatus, registerDevice, resetDevice } from './devices.service';

export const deviceRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/device/register',
      {
        schema: { body: ZDeviceRegisterBody },
        config: {
          isDeviceOptional: true,
          rateLimit: {
            ...deps.limits.deviceRegistration,
            errorResponseBuilder: () => new AppError('RATE_LIMITED', MESSAGES.deviceRateLimited),
          },
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
          rateLimit: {
            ...deps.limits.deviceReset,
            errorResponseBuilder: () => new AppError('RATE_LIMITED', MESSAGES.rateLimited),
          },
        },
      },
      async (request, reply) => {
        const result = await resetDevice(deps.db, getRequestContext(request), {
          device: requireDevice(request),
          user: request.user,
          body: request.body,
        });
        if (result.reset) clearSessionCookie(reply);
        return result;
      },
    );
  };
