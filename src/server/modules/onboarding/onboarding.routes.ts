import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '../../../shared/domain/errors';
import { ZCompleteOnboardingBody } from '../../../shared/schemas/safety-net';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import {
  getRequestContext,
  requirePrimaryOnPrimaryDevice,
  requireDevice,
} from '../../plugins/request-context';
import { recordAudit } from '../audit/audit.service';
import { toUserResponse } from '../users/users.presenter';
import { findRecipientsOf, updateUser } from '../users/users.repository';

export const onboardingRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    /** Only primary accounts onboard (D12); a next of kin must exist first (D19). */
    app.post(
      '/api/user/complete-onboarding',
      { schema: { body: ZCompleteOnboardingBody } },
      async (request) => {
        const user = requirePrimaryOnPrimaryDevice(request, 'Only primary users complete setup.');
        if (user.onboardingCompletedAt) {
          return { ok: true, user: toUserResponse(user, requireDevice(request)) };
        }
        const nextOfKin = await findRecipientsOf(deps.db, user.id, 'next_of_kin');
        if (nextOfKin.length === 0) throw new AppError('VALIDATION', MESSAGES.nextOfKinRequired);

        const onboardingCompletedAt = new Date();
        await deps.db.transaction(async (tx) => {
          await updateUser(tx, user.id, { onboardingCompletedAt });
          await recordAudit(tx, getRequestContext(request), {
            eventType: 'onboarding_completed',
            userId: user.id,
            username: user.username,
          });
        });
        return {
          ok: true,
          user: toUserResponse({ ...user, onboardingCompletedAt }, requireDevice(request)),
        };
      },
    );
  };
