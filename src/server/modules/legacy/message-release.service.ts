import type { TRelease } from '../../../shared/domain/legacy';
import type { TVideoIndexEntry } from '../../../shared/schemas/videos';
import { AppError } from '../../errors';
import { recordAccountEvent, type RequestContext } from '../audit/audit.service';
import type { SessionUser } from '../users/users.repository';
import { updateReleaseRule, updateTimeZone } from './legacy.repository';
import type { LegacyDeps } from './legacy.service';

const WORDS: Record<TRelease['rule'], string> = {
  now: 'now',
  date: 'on a date',
  legacy: 'after the legacy is released',
};

/** The owner changes when a message's recipient may watch it. */
export async function setMessageRelease(
  deps: Pick<LegacyDeps, 'db' | 'clock'>,
  context: RequestContext,
  input: { owner: SessionUser; videoId: string; release: TRelease; timeZone: string | null },
): Promise<TVideoIndexEntry> {
  const { owner, release } = input;
  return deps.db.transaction(async (tx) => {
    const indexEntry = await updateReleaseRule(tx, {
      ownerId: owner.id,
      videoId: input.videoId,
      release,
      now: deps.clock.now(),
    });
    if (!indexEntry) throw new AppError('NOT_FOUND', 'Video not found.');
    if (input.timeZone) await updateTimeZone(tx, owner.id, input.timeZone);
    await recordAccountEvent(tx, context, owner, {
      eventType: 'legacy_settings_changed',
      details: {
        message: `A message was set to open ${WORDS[release.rule]}${release.at ? ` (${release.at.slice(0, 10)})` : ''}`,
        videoId: input.videoId,
      },
    });
    return JSON.parse(indexEntry) as TVideoIndexEntry;
  });
}
