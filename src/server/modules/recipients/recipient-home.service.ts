import { MESSAGES } from '../../../shared/domain/errors';
import { hasCloudSync } from '../../../shared/domain/plan-limits';
import type { TRecipientCategory, TRecipientHome } from '../../../shared/schemas/recipients';
import { AppError } from '../../errors';
import { can, Permission, requireAccess } from '../access/access';
import type { Actor } from '../access/actor';
import { nextOfKinLegacy, type LegacyDeps } from '../legacy/legacy.service';
import { findUserById } from '../users/users.repository';
import { findSharedVideosFor } from '../videos/videos.repository';

/** What a signed-in recipient sees: whose messages these are and what reached the cloud. */
export async function getRecipientHome(deps: LegacyDeps, actor: Actor): Promise<TRecipientHome> {
  requireAccess(actor, Permission.RecipientHome);
  const { user } = actor;
  const now = deps.clock.now();
  const [owner, shared] = await Promise.all([
    // A recipient always has the owner who added them (the rule above).
    findUserById(deps.db, user.createdById!),
    findSharedVideosFor(deps.db, user),
  ]);
  if (!owner) throw new AppError('NOT_FOUND', MESSAGES.notFound);
  const released: typeof shared = [];
  const notOpen: typeof shared = [];
  for (const video of shared) {
    (can(actor, Permission.MessageWatch, { video, owner, now }) ? released : notOpen).push(video);
  }
  // What is not open yet is only mentioned where the owner chose to let recipients know.
  const waiting = owner.showWaitingMessages ? notOpen : [];
  return {
    owner: { firstName: owner.firstName, lastName: owner.lastName },
    category: user.category as TRecipientCategory,
    ownerHasCloudSync: hasCloudSync(owner),
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
    legacy: user.category === 'next_of_kin' ? await nextOfKinLegacy(deps, owner, user) : null,
  };
}
