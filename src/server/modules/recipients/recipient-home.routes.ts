import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '../../../shared/domain/errors';
import { findPlan, hasFullAccess } from '../../../shared/domain/plans';
import type { TRecipientCategory, TRecipientHome } from '../../../shared/schemas/recipients';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { requireUser } from '../../plugins/request-context';
import { findUserById } from '../users/users.repository';
import { findSharedVideosFor } from '../videos/videos.repository';
import { isReleased } from '../legacy/release-rule';
import { nextOfKinLegacy } from '../legacy/legacy.service';

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
      const now = deps.clock.now();
      const [owner, shared] = await Promise.all([
        findUserById(deps.db, user.createdById),
        findSharedVideosFor(deps.db, user.id),
      ]);
      if (!owner) throw new AppError('NOT_FOUND', MESSAGES.notFound);
      const released = shared.filter((video) => isReleased(video, owner, now));
      // What is not open yet is only mentioned where the owner chose to let recipients know.
      const waiting = owner.showWaitingMessages
        ? shared.filter((video) => !isReleased(video, owner, now))
        : [];
      return {
        owner: { firstName: owner.firstName, lastName: owner.lastName },
        category: user.category as TRecipientCategory,
        ownerHasCloudSync: hasFullAccess(owner) || findPlan(owner.subscriptionTier).hasCloudSync,
        sharedVideos: released.map((video) => ({
          id: video.id,
          title: video.title,
          createdAt: video.createdAt.toISOString(),
          durationMs: video.durationMs,
        })),
        waitingMessages: waiting.map((video) => ({
          id: video.id,
          opensWith: video.releaseRule === 'date' ? ('date' as const) : ('legacy' as const),
          opensAt: video.releaseRule === 'date' ? (video.releaseAt?.toISOString() ?? null) : null,
        })),
        legacy:
          user.category === 'next_of_kin'
            ? await nextOfKinLegacy(deps, { ownerId: owner.id })
            : null,
      };
    });
  };
