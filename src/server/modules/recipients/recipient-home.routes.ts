import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '../../../shared/domain/errors';
import { findPlan, hasFullAccess } from '../../../shared/domain/plans';
import type { TRecipientCategory, TRecipientHome } from '../../../shared/schemas/recipients';
import type { AppDeps } from '../../app';
import { AppError } from '../../errors';
import { requireUser } from '../../plugins/request-context';
import { findUserById } from '../users/users.repository';
import { findSharedVideosFor } from '../videos/videos.repository';

const RECIPIENT_CATEGORIES = new Set(['next_of_kin', 'family', 'friend']);

/** What a signed-in recipient sees: whose messages these are and what reached the cloud. */
export const recipientHomeRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/api/recipient-home', async (request): Promise<TRecipientHome> => {
      const user = requireUser(request);
      if (!RECIPIENT_CATEGORIES.has(user.category) || user.createdById === null) {
        throw new AppError('FORBIDDEN', MESSAGES.recipientsOnly);
      }
      const [owner, shared] = await Promise.all([
        findUserById(deps.db, user.createdById),
        findSharedVideosFor(deps.db, user.id),
      ]);
      if (!owner) throw new AppError('NOT_FOUND', MESSAGES.notFound);
      return {
        owner: { firstName: owner.firstName, lastName: owner.lastName },
        category: user.category as TRecipientCategory,
        ownerHasCloudSync: hasFullAccess(owner) || findPlan(owner.subscriptionTier).hasCloudSync,
        sharedVideos: shared.map((video) => ({
          id: video.id,
          title: video.title,
          createdAt: video.createdAt.toISOString(),
          durationMs: video.durationMs,
        })),
      };
    });
  };
