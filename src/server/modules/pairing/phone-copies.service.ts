import {
  ENCRYPTION_MESSAGES,
  MAX_WAITING_PHONE_COPIES,
  type TSealPhoneCopyBody,
  type TWaitingPhoneCopy,
} from '../../../shared/schemas/encryption';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { Permission, requireAccess } from '../access/access';
import type { Actor } from '../access/actor';
import { findRecipientKey } from '../recipients/recipient-keys.repository';
import { findVideoById } from '../videos/videos.repository';
import { findWaitingPhoneCopies, sealWaitingCopy } from './phone-copies.repository';

/**
 * A phone's sealed videos wait for one of the owner's unlocked devices: it opens the pairing key
 * with the account key, the content key with the pairing key, and wraps that for the owner and the
 * recipient's card, as for any sealed message. The server keeps the new wraps and drops the
 * pairing key's; it can open none of them.
 */

type Deps = Pick<AppDeps, 'clock' | 'db'>;

/** GET /api/phone-copies: what waits, a batch at a time, with what opens each. */
export async function listWaitingPhoneCopies(
  deps: Deps,
  actor: Actor,
): Promise<{ copies: TWaitingPhoneCopy[] }> {
  requireAccess(actor, Permission.EncryptionRead);
  const rows = await findWaitingPhoneCopies(deps.db, actor.user.id, MAX_WAITING_PHONE_COPIES);
  const copies = rows.flatMap((row) =>
    row.pairingKeyWrap && row.pairingKeyId && row.pairingOwnerWrap
      ? [
          {
            videoId: row.videoId,
            recipientId: row.recipientId,
            pairingKeyWrap: row.pairingKeyWrap,
            pairingKey: { keyId: row.pairingKeyId, ownerWrap: row.pairingOwnerWrap },
            recipientKey:
              row.recipientKeyId && row.recipientOwnerWrap
                ? { keyId: row.recipientKeyId, ownerWrap: row.recipientOwnerWrap }
                : null,
          },
        ]
      : [],
  );
  return { copies };
}

/**
 * POST /api/phone-copies/:videoId/seal: the owner's device's wraps replace the pairing key's. A
 * wrap for a card that is no longer the recipient's is refused (the device asks again); without
 * one, the recipient's card is wrapped for later, as for any sealed message.
 */
export async function sealPhoneCopy(
  deps: Deps,
  input: { actor: Actor; videoId: string; body: TSealPhoneCopyBody },
): Promise<{ videoId: string }> {
  const { actor, videoId, body } = input;
  requireAccess(actor, Permission.EncryptionRead);
  const owner = actor.user;
  const video = await findVideoById(deps.db, videoId);
  if (!video || video.creatorId !== owner.id || video.pairingKeyWrap === null) {
    throw new AppError('NOT_FOUND', ENCRYPTION_MESSAGES.notWaitingToBeSealed);
  }
  const forCard = video.recipientId === owner.id ? null : (body.recipientKey ?? null);
  if (forCard) {
    const card = await findRecipientKey(deps.db, video.recipientId);
    if (card?.keyId !== forCard.keyId) {
      throw new AppError('CONFLICT', ENCRYPTION_MESSAGES.cardChanged);
    }
  }
  const sealed = await sealWaitingCopy(deps.db, {
    ownerId: owner.id,
    videoId,
    keyWrap: body.keyWrap,
    recipientKey: forCard,
    now: deps.clock.now(),
  });
  if (!sealed) throw new AppError('NOT_FOUND', ENCRYPTION_MESSAGES.notWaitingToBeSealed);
  return { videoId };
}
