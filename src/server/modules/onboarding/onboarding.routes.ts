import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZCompleteOnboardingBody } from '../../../shared/schemas/onboarding';
import type { AppDeps } from '../../deps';
import { getRequestContext, requireActor, requireDevice } from '../../plugins/request-context';
import { toUserResponse } from '../users/users.presenter';
import { completeOnboarding } from './onboarding.service';

export const onboardingRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    // Only owners set up an account; recipients and added devices have nothing to set up.
    app.post(
      '/api/user/complete-onboarding',
      { schema: { body: ZCompleteOnboardingBody } },
      async (request) => {
        const actor = requireActor(request);
        const completed = await completeOnboarding(deps, getRequestContext(request), actor);
        return { ok: true, user: toUserResponse(completed, requireDevice(request)) };
      },
    );
  };
