import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '../../../shared/domain/errors';
import {
  ZChangePasswordBody,
  ZCompleteResetBody,
  ZForgotPasswordBody,
  ZSetupPasswordBody,
} from '../../../shared/schemas/passwords';
import type { AppDeps } from '../../deps';
import { getRequestContext, requireDevice, requireUser } from '../../plugins/request-context';
import {
  changePassword,
  completePasswordReset,
  requestPasswordReset,
  setupPassword,
} from './passwords.service';
import { perIpLimit } from '../../plugins/rate-limit';
import { newPasswordGiven, passwordGiven } from './derived-password';

export const passwordRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const rateLimit = perIpLimit(deps.limits.passwordReset, MESSAGES.resetRateLimited);

    app.post(
      '/api/temporary-password-reset',
      { schema: { body: ZForgotPasswordBody }, config: { rateLimit } },
      async (request) => requestPasswordReset(deps, getRequestContext(request), request.body.email),
    );

    app.post(
      '/api/complete-temporary-reset',
      { schema: { body: ZCompleteResetBody }, config: { rateLimit } },
      async (request) =>
        completePasswordReset(deps, getRequestContext(request), {
          email: request.body.email,
          code: request.body.resetToken,
          newPassword: newPasswordGiven(request.body),
        }),
    );

    app.post('/api/reset-password', { schema: { body: ZChangePasswordBody } }, async (request) => {
      const user = requireUser(request);
      return changePassword(
        deps,
        { ...getRequestContext(request), deviceId: requireDevice(request).id },
        {
          user,
          sessionIdHash: request.sessionIdHash!,
          currentPassword: passwordGiven({
            password: request.body.currentPassword,
            passwordProof: request.body.currentPasswordProof,
          }),
          newPassword: newPasswordGiven(request.body),
          newPasswordWrap: request.body.newPasswordWrap,
        },
      );
    });

    app.post('/api/setup-password', { schema: { body: ZSetupPasswordBody } }, async (request) =>
      setupPassword(deps, getRequestContext(request), {
        user: requireUser(request),
        password: newPasswordGiven({ ...request.body, newPassword: request.body.password }),
      }),
    );
  };
