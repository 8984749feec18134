import { sql, type SQL } from 'drizzle-orm';
import type { TRelease } from '../../../shared/domain/legacy';
import { users, videos } from '../../db/schema';

/**
 * Whether a message is open to its recipient at `now`: 'now' at once, 'date' from its date,
 * 'legacy' once the owner's legacy is released. The one statement of the rule: the recipient's
 * list asks it in SQL, playback in code, and both read the same columns.
 */
export function isReleased(
  video: { releaseRule: TRelease['rule']; releaseAt: Date | null },
  owner: { legacyReleasedAt: Date | null },
  now: Date,
): boolean {
  switch (video.releaseRule) {
    case 'now':
      return true;
    case 'date':
      return video.releaseAt !== null && video.releaseAt.getTime() <= now.getTime();
    case 'legacy':
      return owner.legacyReleasedAt !== null;
  }
}

/** The same rule as a condition on `videos` (its owner read by a sub-select). */
export function releasedCondition(now: Date): SQL {
  return sql`(${videos.releaseRule} = 'now'
    or (${videos.releaseRule} = 'date' and ${videos.releaseAt} <= ${now.toISOString()}::timestamptz)
    or (${videos.releaseRule} = 'legacy' and exists (
      select 1 from ${users} as owner
       where owner.id = ${videos.creatorId} and owner.legacy_released_at is not null)))`;
}
