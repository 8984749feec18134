import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '../../../shared/domain/errors';
import { ZEmergencyAccessBody } from '../../../shared/schemas/emergency-access';
import type { AppDeps } from '../../deps';
import { getRequestContext, requireUser } from '../../plugins/request-context';
import { breakGlassFromSession, breakGlassWithCode } from './emergency.service';
import { codeGiven } from '../recipients/access-codes';
import { perIpLimit } from '../../plugins/rate-limit';
import { newPasswordGiven } from '../auth/derived-password';

export const emergencyRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/break-glass-reset',
      {
        schema: { body: ZEmergencyAccessBody },
        config: {
          rateLimit: perIpLimit(deps.limits.emergency, MESSAGES.breakGlassRateLimited),
        },
      },
      async (request) => {
        const { nextOfKinEmail, emergencyCode, codeProof } = request.body;
        const newPassword = newPasswordGiven(request.body);
        const context = getRequestContext(request);
        if (emergencyCode || codeProof) {
          return breakGlassWithCode(deps, context, {
            email: nextOfKinEmail,
            given: codeGiven({ code: emergencyCode, proof: codeProof }),
            newPassword,
          });
        }
        return breakGlassFromSession(deps, context, {
          user: requireUser(request),
          sessionMethod: request.sessionMethod,
          sessionCreatedAt: request.sessionCreatedAt,
          email: nextOfKinEmail,
          newPassword,
        });
      },
    );
  };
