import { and, eq, or, type SQL } from 'drizzle-orm';
import { videos } from '../../db/schema';
import { isReleased } from '../legacy/release-rule';
import type { SessionUser } from '../users/users.repository';

/**
 * Who may watch a message, stated once. The owner (its creator) always; a recipient only the
 * messages shared with them by the owner who created their account, and only once each is
 * released (legacy/release-rule.ts says when). A deleted message or recipient has no row, so
 * access ends the moment either goes. Playback and the recipient's list both use these.
 */

type Viewer = Pick<SessionUser, 'id' | 'createdById'>;

const RECIPIENT_CATEGORIES: ReadonlySet<string> = new Set(['next_of_kin', 'family', 'friend']);

/** A recipient's account: one of the recipient categories, created by an owner. */
export function isRecipient(
  user: Pick<SessionUser, 'category' | 'createdById'>,
): user is Pick<SessionUser, 'category'> & { createdById: number } {
  return RECIPIENT_CATEGORIES.has(user.category) && user.createdById !== null;
}

/** Messages shared with this recipient by the owner who created their account. */
export function sharedWith(recipient: Viewer): SQL {
  // An account no owner created is shared nothing (id -1 matches no row).
  return and(
    eq(videos.recipientId, recipient.id),
    eq(videos.creatorId, recipient.createdById ?? -1),
  )!;
}

/** Messages this account may ask for: its own, and those shared with it. */
export function watchableBy(user: Viewer): SQL {
  return or(eq(videos.creatorId, user.id), sharedWith(user))!;
}

/**
 * Whether a message `watchableBy` the user is open to them at `now`: always to its owner; to a
 * recipient once released. `owner` is the message's owner (null when that account is gone).
 */
export function isOpenTo(
  user: Pick<SessionUser, 'id'>,
  video: { creatorId: number } & Parameters<typeof isReleased>[0],
  owner: Parameters<typeof isReleased>[1] | null,
  now: Date,
): boolean {
  if (video.creatorId === user.id) return true;
  return owner !== null && isReleased(video, owner, now);
}
