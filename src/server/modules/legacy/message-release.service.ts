import { and, eq } from 'drizzle-orm';
import type { TRelease } from '../../../shared/domain/legacy';
import type { TVideoIndexEntry } from '../../../shared/schemas/videos';
import { users, videos } from '../../db/schema';
import { AppError } from '../../errors';
import { recordAudit, type RequestContext } from '../audit/audit.service';
import type { SessionUser } from '../users/users.repository';
import type { LegacyDeps } from './legacy.service';

const WORDS: Record<TRelease['rule'], string> = {
  now: 'now',
  date: 'on a date',
  legacy: 'after the legacy is released',
};

/** The owner changes when a message's recipient may watch it. */
export async function setMessageRelease(
  deps: Pick<LegacyDeps, 'db'>,
  context: RequestContext,
  input: { owner: SessionUser; videoId: string; release: TRelease; timeZone: string | null },
): Promise<TVideoIndexEntry> {
  const { owner, release } = input;
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(videos)
      .set({
        releaseRule: release.rule,
        releaseAt: release.at === null ? null : new Date(release.at),
        // A new date is announced again when it comes.
        openingAnnouncedAt: null,
        updatedAt: new Date(),
      })
      .where(and(eq(videos.id, input.videoId), eq(videos.creatorId, owner.id)))
      .returning({ indexEntry: videos.indexEntry });
    if (!row?.indexEntry) throw new AppError('NOT_FOUND', 'Video not found.');
    if (input.timeZone) {
      await tx.update(users).set({ timeZone: input.timeZone }).where(eq(users.id, owner.id));
    }
    await recordAudit(tx, context, {
      eventType: 'legacy_settings_changed',
      userId: owner.id,
      username: owner.username,
      details: {
        message: `A message was set to open ${WORDS[release.rule]}${release.at ? ` (${release.at.slice(0, 10)})` : ''}`,
        videoId: input.videoId,
      },
    });
    return JSON.parse(row.indexEntry) as TVideoIndexEntry;
  });
}
