import type { TRelease } from '../../../shared/domain/legacy';

/**
 * Whether a message is open to its recipient at `now`: 'now' at once, 'date' from its date,
 * 'legacy' once the owner's legacy is released. The one statement of the rule: the recipient's
 * list and playback both ask it.
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

/**
 * Whether the next of kin's escrow of the account key may be handed to them: on the rule of
 * 'after my legacy' messages, once a request's waiting period ran out without the owner
 * cancelling it, and no longer once the owner ends the release.
 */
export function isEscrowReleased(owner: { legacyReleasedAt: Date | null }): boolean {
  return owner.legacyReleasedAt !== null;
}

/**
 * Whether the owner's key recovery lets their own account open the next of kin's escrow at `now`:
 * once its waiting period ran out without the owner stopping it, until they get back another way.
 */
export function isRecoveryOpen(
  recovery: { status: string; opensAt: Date } | undefined,
  now: Date,
): boolean {
  return recovery?.status === 'waiting' && recovery.opensAt.getTime() <= now.getTime();
}
