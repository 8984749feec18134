import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '../../../shared/domain/errors';
import { ZLoginBody, ZRegisterBody, type TSessionCheck } from '../../../shared/schemas/auth';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import {
  clearSessionCookie,
  getRequestContext,
  readWithContext,
  requireDevice,
  requireUser,
  setSessionCookie,
} from '../../plugins/request-context';
import { toUserResponse } from '../users/users.presenter';
import { presentCurrentUser, WAITING_RELEASE_READ } from '../users/current-user.service';
import { signInWithAccessCode } from '../recipients/recipient-sign-in.service';
import { codeGiven } from '../recipients/access-codes';
import { login, logout, register } from './auth.service';
import { perIpLimit, perIpSignInLimit } from '../../plugins/rate-limit';
import { ZPreloginBody, type TPreloginResponse } from '../../../shared/schemas/derived-password';
import { findUserByUsername } from '../users/users.repository';
import { findPrimaryAccountOnDevice } from '../devices/devices.repository';
import { preloginAnswer } from './derived-password';

/** The device in the body must be the device in the header: one device per request. */
function assertSameDevice(headerDeviceId: string, bodyDeviceId: string) {
  if (headerDeviceId !== bodyDeviceId.toLowerCase()) {
    throw new AppError('VALIDATION', MESSAGES.deviceInitRequired, {
      deviceId: MESSAGES.deviceInitRequired,
    });
  }
}

export const authRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/register',
      {
        schema: { body: ZRegisterBody },
        config: {
          rateLimit: perIpLimit(deps.limits.registration, MESSAGES.registerRateLimited),
        },
      },
      async (request, reply) => {
        const device = requireDevice(request);
        assertSameDevice(device.id, request.body.deviceId);
        const signedIn = await register(deps.db, deps.config, getRequestContext(request), {
          device,
          body: request.body,
          now: deps.clock.now(),
        });
        setSessionCookie(reply, deps.config, signedIn.token, signedIn.expiresAt);
        return reply.status(201).send(toUserResponse(signedIn.user, signedIn.device));
      },
    );

    app.post(
      '/api/login',
      {
        schema: { body: ZLoginBody },
        config: {
          rateLimit: perIpSignInLimit(deps.limits.login, MESSAGES.loginRateLimited),
        },
      },
      async (request, reply) => {
        const device = requireDevice(request);
        assertSameDevice(device.id, request.body.deviceId);
        const { body } = request;
        const signedIn =
          body.method === 'email_access_code'
            ? await signInWithAccessCode(deps.db, getRequestContext(request), {
                device,
                email: body.username,
                given: codeGiven({ code: body.password, proof: body.codeProof }),
                previousSessionIdHash: request.sessionIdHash,
                now: deps.clock.now(),
              })
            : await login(deps.db, getRequestContext(request), {
                device,
                body,
                previousSessionIdHash: request.sessionIdHash,
                now: deps.clock.now(),
              });
        setSessionCookie(reply, deps.config, signedIn.token, signedIn.expiresAt);
        const user = toUserResponse(signedIn.user, signedIn.device);
        // A sealed card's sign-in also brings the card its code opens.
        return 'recipientKeys' in signedIn
          ? { ...user, recipientKeys: signedIn.recipientKeys }
          : user;
      },
    );

    // Before a sign-in, the settings to split the password with; the same shape for every name.
    app.post(
      '/api/auth/prelogin',
      {
        schema: { body: ZPreloginBody },
        config: { rateLimit: perIpLimit(deps.limits.login, MESSAGES.loginRateLimited) },
      },
      async (request): Promise<TPreloginResponse> => {
        const device = requireDevice(request);
        const { body } = request;
        if ('username' in body) {
          const stored = await findUserByUsername(deps.db, body.username);
          return preloginAnswer(deps, body.username, stored);
        }
        const bound = await findPrimaryAccountOnDevice(deps.db, device.id);
        return preloginAnswer(deps, `device:${device.id}`, bound);
      },
    );

    app.post('/api/logout', async (request, reply) => {
      await logout(deps.db, getRequestContext(request), {
        user: request.user,
        sessionIdHash: request.sessionIdHash,
      });
      clearSessionCookie(reply);
      return { ok: true };
    });

    // The owner's waiting legacy release rides in the request's one statement.
    app.get('/api/user', { config: { contextRead: WAITING_RELEASE_READ } }, async (request) =>
      presentCurrentUser(
        requireUser(request),
        requireDevice(request),
        readWithContext(request, WAITING_RELEASE_READ),
      ),
    );

    app.get('/api/session-check', async (request): Promise<TSessionCheck> => ({
      authenticated: request.user !== null,
      userId: request.user?.id ?? null,
      expiresAt: request.sessionExpiresAt?.toISOString() ?? null,
    }));
  };
