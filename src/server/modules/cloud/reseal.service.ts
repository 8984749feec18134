import { CLOUD_MESSAGES } from '../../../shared/schemas/cloud';
import { ENCRYPTION_MESSAGES, type TPlainCopies } from '../../../shared/schemas/encryption';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { Permission, requireAccess } from '../access/access';
import type { Actor } from '../access/actor';
import { recordAudit, type RequestContext } from '../audit/audit.service';
import type { VideoRow } from '../videos/videos.repository';
import {
  countPlainCopies,
  findSealableIds,
  lockCopyBefore,
  type CopyBefore,
} from './reseal.repository';
import {
  markVideoSynced,
  setUploadStatus,
  touchDeviceSync,
  type UploadRow,
} from './uploads.repository';

/**
 * Copies made before enhanced encryption was on are sealed again from the owner's device: a
 * sealed upload for a message whose cloud copy is plain replaces it. The plain copy goes only
 * once everyone it is for can open the sealed one, so no watchable message is ever lost.
 */

type Deps = Pick<AppDeps, 'clock' | 'db' | 'log' | 'videoStore'>;

/** A plain copy in the cloud for someone other than its owner: their card must open its successor. */
const needsRecipientWrap = (before: CopyBefore) =>
  before.cloudPath !== null &&
  before.sealedKeyWrap === null &&
  before.recipientId !== before.creatorId;

/**
 * POST /api/uploads for a message whose cloud copy is plain: a sealed copy replaces it only with
 * the content key wrapped for the recipient's current card (or when the owner is the recipient).
 */
export function requireOpenableReplacement(
  video: VideoRow,
  upload: { sealedKeyWrap: string | null; recipientKeyWrap: string | null },
): void {
  if (video.syncStatus !== 'synced' || upload.sealedKeyWrap === null) return;
  if (needsRecipientWrap(video) && upload.recipientKeyWrap === null) {
    throw new AppError('CONFLICT', ENCRYPTION_MESSAGES.resealNeedsCard);
  }
}

/** GET /api/encryption/plain-copies: what is left to seal, and who needs a new card first. */
export async function getPlainCopies(deps: Deps, actor: Actor): Promise<TPlainCopies> {
  requireAccess(actor, Permission.EncryptionRead);
  const ownerId = actor.user.id;
  const groups = await countPlainCopies(deps.db, ownerId);
  const waiting = groups
    .filter((group) => group.recipientId !== ownerId && !group.hasCard)
    .map((group) => ({
      recipientId: group.recipientId,
      firstName: group.firstName,
      count: Number(group.count),
    }))
    .sort((a, b) => a.firstName.localeCompare(b.firstName));
  return {
    plainCount: groups.reduce((total, group) => total + Number(group.count), 0),
    sealableIds: await findSealableIds(deps.db, ownerId),
    waiting,
  };
}

class CardChangedError extends Error {}

/**
 * Points the message at its completed copy and the copy's wraps in one transaction, then deletes
 * the copy it replaced. A plain copy replaced by a sealed one whose recipient's wrap was dropped
 * (their card changed on the way) is kept instead, and the new copy goes.
 */
export async function swapInCompletedCopy(
  deps: Deps,
  context: RequestContext,
  claimed: UploadRow,
  stored: { sha256: string; byteSize: number },
): Promise<VideoRow> {
  let replacedKey: string | null = null;
  let video: VideoRow | undefined;
  try {
    video = await deps.db.transaction(async (tx) => {
      const finished = await setUploadStatus(tx, claimed.id, 'completed', deps.clock.now());
      if (!finished) return undefined;
      const before = await lockCopyBefore(tx, claimed.videoId);
      replacedKey = before?.cloudPath ?? null;
      const row = await markVideoSynced(
        tx,
        claimed.videoId,
        {
          objectKey: claimed.objectKey,
          sha256: stored.sha256,
          byteSize: stored.byteSize,
          sealedKeyWrap: claimed.sealedKeyWrap,
          recipientKeyWrap: claimed.recipientKeyWrap,
          recipientKeyId: claimed.recipientKeyId,
          pairingKeyWrap: claimed.pairingKeyWrap,
          pairingId: claimed.pairingKeyWrap === null ? null : claimed.pairingId,
        },
        deps.clock.now(),
      );
      const isResealed = before && claimed.sealedKeyWrap !== null && needsRecipientWrap(before);
      if (row && isResealed && row.recipientKeyWrap === null) throw new CardChangedError();
      if (row && isResealed) {
        // The owner's log says when a plain copy in the cloud was replaced by a sealed one.
        await recordAudit(tx, context, {
          eventType: 'encryption_copy_resealed',
          userId: row.creatorId,
          details: {
            // No title: the admin's view of logs must learn nothing of what was recorded.
            message: 'A message’s plain copy in the cloud was replaced by a sealed one',
          },
        });
      }
      if (row && claimed.deviceId) await touchDeviceSync(tx, claimed.deviceId, deps.clock.now());
      return row;
    });
  } catch (error) {
    if (!(error instanceof CardChangedError)) throw error;
    await setUploadStatus(deps.db, claimed.id, 'aborted', deps.clock.now());
    await removeUnownedObject(deps, claimed.objectKey);
    throw new AppError('CONFLICT', ENCRYPTION_MESSAGES.resealCardChanged);
  }
  if (!video) {
    // The message was deleted while its last part was on the way: nothing may stay behind.
    await removeUnownedObject(deps, claimed.objectKey);
    throw new AppError('NOT_FOUND', CLOUD_MESSAGES.videoNotFound);
  }
  if (replacedKey !== null && replacedKey !== claimed.objectKey) {
    await removeUnownedObject(deps, replacedKey);
  }
  return video;
}

/**
 * Deletes an object whose row has let go of it (a re-upload's old copy, a message deleted during
 * its upload). A store that fails leaves it to the nightly sweep, which finds every object no
 * row owns: the row's change stands, and the request still succeeds.
 */
export async function removeUnownedObject(deps: Deps, objectKey: string): Promise<void> {
  await deps.videoStore
    .deleteObject(objectKey)
    .catch((error: unknown) =>
      deps.log.warn({ err: error }, 'the store could not delete an object; the sweep will'),
    );
}
