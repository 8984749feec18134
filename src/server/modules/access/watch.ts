import { and, eq, or, type SQL } from 'drizzle-orm';
import { videos } from '../../db/schema';
import type { SessionUser } from '../users/users.repository';

/**
 * Which message rows an account may ask for, as query filters: the loading side of the
 * `MessageWatch` rule in access.ts. The owner (its creator) always; a recipient only the messages
 * shared with them by the owner who created their account; access.ts then says whether each is
 * released. Playback and the recipient's list both use these.
 */

type Viewer = Pick<SessionUser, 'id' | 'createdById'>;

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
